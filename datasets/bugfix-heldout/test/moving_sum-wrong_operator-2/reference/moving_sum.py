def moving_sum(xs, k):
    if k <= 0: return []
    out = []
    total = 0
    for i in range(len(xs)):
        total += xs[i]
        if i >= k:
            total -= xs[i - k]
        if i >= k - 1:
            out.append(total)
    return out
