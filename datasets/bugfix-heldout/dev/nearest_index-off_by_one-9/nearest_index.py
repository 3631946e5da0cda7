def nearest_index(xs, target):
    best = -1
    for i in range(len(xs)):
        d = abs(xs[i] - target)
        if best == -1 or d < abs(xs[best + 1] - target):
            best = i
    return best
