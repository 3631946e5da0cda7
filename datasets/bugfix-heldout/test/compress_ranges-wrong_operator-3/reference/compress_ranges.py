def compress_ranges(xs):
    out = []
    i = 0
    while i < len(xs):
        j = i
        while j + 1 < len(xs) and xs[j + 1] == xs[j] + 1:
            j += 1
        if j > i:
            out.append(str(xs[i]) + "-" + str(xs[j]))
        else:
            out.append(str(xs[i]))
        i = j + 1
    return ",".join(out)
