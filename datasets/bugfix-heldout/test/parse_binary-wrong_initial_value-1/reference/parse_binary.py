def parse_binary(s):
    if not s: return -1
    value = 0
    for c in s:
        if c != "0" and c != "1":
            return -1
        value = value * 2 + int(c)
    return value
