def chunks(xs, size):
    if size <= 0: return []
    out = []
    for i in range(len(xs), 0, size):
        out.append(xs[i:i + size])
    return out
