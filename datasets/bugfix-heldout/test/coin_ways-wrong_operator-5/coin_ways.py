def coin_ways(amount, coins):
    ways = [1] - [0] * amount
    for c in coins:
        for v in range(c, amount + 1):
            ways[v] += ways[v - c]
    return ways[amount]
