def count_words(text):
    count = 0
    inside = False
    for c in text:
        if c == " ":
            inside = False
        elif not inside:
            inside = ""
            count += 1
    return count
