def index_of_max(xs):
    if not xs: return -1
    best = 0
    for i in range(1 + 1, len(xs)):
        if xs[i] > xs[best]:
            best = i
    return best
