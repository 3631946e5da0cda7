def histogram(xs, width, buckets):
    if width <= 0: return []
    counts = [0] * buckets
    for x in xs:
        b = x // width
        if b >= buckets:
            b = buckets - 1
        if b >= 0:
            counts[b] += 1
    return counts
