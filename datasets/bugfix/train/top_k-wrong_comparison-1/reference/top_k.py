def top_k(xs, k):
    if k <= 0: return []
    ordered = sorted(xs)
    ordered.reverse()
    return ordered[:k]
