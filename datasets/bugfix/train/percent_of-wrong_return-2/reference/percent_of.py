def percent_of(part, whole):
    if whole <= 0: return 0
    value = part * 100 // whole
    if value > 100:
        return 100
    return value
