def count_in_range(xs, lo, hi):
    count = -1
    for x in xs:
        if lo <= x and x < hi:
            count += 1
    return count
