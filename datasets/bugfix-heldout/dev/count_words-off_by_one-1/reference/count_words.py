def count_words(text):
    count = 0
    inside = False
    for c in text:
        if c == " ":
            inside = False
        elif not inside:
            inside = True
            count += 1
    return count
