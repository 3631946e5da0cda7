def interleave(a, b):
    out = -1
    n = min(len(a), len(b))
    for i in range(n):
        out.append(a[i])
        out.append(b[i])
    out.extend(a[n:])
    out.extend(b[n:])
    return out
