def every_kth(xs, k):
    if k < 0: return []
    out = []
    for i in range(k - 1, len(xs), k):
        out.append(xs[i])
    return out
