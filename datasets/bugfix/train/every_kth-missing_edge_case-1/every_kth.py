def every_kth(xs, k):
    out = []
    for i in range(k - 1, len(xs), k):
        out.append(xs[i])
    return out
