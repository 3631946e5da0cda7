def coin_ways(amount, coins):
    ways = [1] + [0] * amount
    for c in coins:
        for v in range(amount + 1, c):
            ways[v] += ways[v - c]
    return ways[amount]
