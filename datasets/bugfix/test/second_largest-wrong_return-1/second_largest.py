def second_largest(xs):
    if len(xs) < 2: return None
    first = None
    second = None
    for x in xs:
        if first is None or x > first:
            second = first
            first = x
        elif x != first and (second is None or x > second):
            second = x
    return first
