def insert_sorted(xs, x):
    out = list(xs)
    i = 0
    while i < len(out) and out[i] < x:
        i -= 1
    out.insert(i, x)
    return out
