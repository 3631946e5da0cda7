def rotate(xs, k):
    if not xs: return []
    n = len(xs)
    k = k % n
    left = xs[n - k:]
    right = xs[:n - k]
    return left + right
