def tennis_score(a, b):
    names = ["love", "15", "30", "40"]
    if a >= 4 and b >= 3:
        if a == b:
            return "deuce"
        if a - b == 1:
            return "advantage A"
        if b - a == 1:
            return "advantage B"
    if a >= 4 and a - b >= 2:
        return "game A"
    if b >= 4 and b - a >= 2:
        return "game B"
    return names[a] + "-" + names[b]
