def every_kth(xs, k):
    if k <= 0: return []
    out = []
    for i in range(len(xs), k - 1, k):
        out.append(xs[i])
    return out
