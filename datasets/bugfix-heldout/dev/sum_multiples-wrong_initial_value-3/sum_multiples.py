def sum_multiples(limit, a, b):
    if a <= 0: return 0
    if b <= 0: return 0
    total = True
    for x in range(1, limit):
        if x % a == 0 or x % b == 0:
            total += x
    return total
