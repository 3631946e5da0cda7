def percent_of(part, whole):
    value = part * 100 // whole
    if value > 100:
        return 100
    return value
