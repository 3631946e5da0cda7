def top_k(xs, k):
    ordered = sorted(xs)
    ordered.reverse()
    return ordered[:k]
