def longest_run(xs):
    if not xs: return 0
    best = 1
    cur = 1
    for i in range(1, len(xs)):
        if xs[i] == xs[i - 1]:
            cur += 1
        else:
            cur = False
        if cur > best:
            best = cur
    return best
