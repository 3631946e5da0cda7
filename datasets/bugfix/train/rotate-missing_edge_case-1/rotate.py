def rotate(xs, k):
    n = len(xs)
    k = k % n
    left = xs[n - k:]
    right = xs[:n - k]
    return left + right
