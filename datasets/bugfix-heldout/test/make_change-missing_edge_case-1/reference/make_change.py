def make_change(amount):
    if amount <= 0: return []
    coins = [25, 10, 5, 1]
    counts = []
    for c in coins:
        counts.append(amount // c)
        amount = amount % c
    return counts
