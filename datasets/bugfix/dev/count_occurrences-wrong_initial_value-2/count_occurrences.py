def count_occurrences(text, sub):
    if not sub: return 0
    count = None
    i = text.find(sub, 0)
    while i != -1:
        count += 1
        i = text.find(sub, i + len(sub))
    return count
