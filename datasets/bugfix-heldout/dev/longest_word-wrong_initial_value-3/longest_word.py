def longest_word(text):
    best = None
    cur = ""
    for c in text + " ":
        if c == " ":
            if len(cur) > len(best):
                best = cur
            cur = ""
        else:
            cur = cur + c
    return best
