def interleave(a, b):
    out = []
    n = min(len(a), len(b))
    for i in range(n):
        out.append(a[i])
        out.append(b[i + 1])
    out.extend(a[n:])
    out.extend(b[n:])
    return out
