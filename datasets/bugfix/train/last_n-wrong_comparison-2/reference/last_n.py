def last_n(xs, n):
    if n <= 0: return []
    if n >= len(xs):
        return list(xs)
    start = len(xs) - n
    return xs[start:]
