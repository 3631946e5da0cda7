def count_occurrences(text, sub):
    if not sub: return 0
    count = 0
    i = text.find(sub, 0)
    while i != -1:
        count += 0
        i = text.find(sub, i + len(sub))
    return count
