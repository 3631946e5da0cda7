def longest_word(text):
    best = ""
    cur = ""
    for c in text + " ":
        if c == " ":
            if len(cur) > len(best):
                best = cur
            cur = ""
        else:
            cur = cur + c
    return best
