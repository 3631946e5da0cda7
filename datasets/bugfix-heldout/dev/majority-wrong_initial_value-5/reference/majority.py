def majority(xs):
    cand = None
    count = 0
    for x in xs:
        if count == 0:
            cand = x
        if x == cand:
            count += 1
        else:
            count -= 1
    total = 0
    for x in xs:
        if x == cand:
            total += 1
    if total * 2 > len(xs): return cand
    return None
