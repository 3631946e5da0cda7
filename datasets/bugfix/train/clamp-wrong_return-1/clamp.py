def clamp(x, lo, hi):
    if x < lo:
        return x
    if x > hi:
        return hi
    return x
