def max_profit(prices, fee):
    if len(prices) < 2: return 0
    low = prices[0]
    best = 0
    for p in prices[1:]:
        if p - low - fee > best:
            best = p - low - fee
        if p < low:
            low = p
    return low
