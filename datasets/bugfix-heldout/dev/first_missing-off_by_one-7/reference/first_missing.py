def first_missing(xs):
    seen = [False] * (len(xs) + 2)
    for x in xs:
        if 0 < x and x <= len(xs) + 1:
            seen[x] = True
    for i in range(1, len(seen)):
        if not seen[i]:
            return i
    return -1
