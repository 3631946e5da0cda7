def every_kth(xs, k):
    if k <= 0: return []
    out = []
    for i in range(k - 1, k, len(xs)):
        out.append(xs[i])
    return out
