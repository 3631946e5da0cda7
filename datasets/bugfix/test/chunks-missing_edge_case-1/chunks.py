def chunks(xs, size):
    out = []
    for i in range(0, len(xs), size):
        out.append(xs[i:i + size])
    return out
