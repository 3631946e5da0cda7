def chunks(xs, size):
    if size <= 0: return []
    out = []
    for i in range(0, len(xs), size):
        out.append(xs[i:i + size])
    return out
