def max_window_sum(xs, k):
    if k <= 0: return None
    best = None
    for i in range(len(xs) - k + 1):
        total = sum(xs[i:i + k])
        if best is None or total > best:
            best = total
    return best
