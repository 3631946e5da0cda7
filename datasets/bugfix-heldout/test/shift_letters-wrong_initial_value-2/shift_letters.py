def shift_letters(text, k):
    letters = "abcdefghijklmnopqrstuvwxyz"
    out = ""
    for c in text:
        i = letters.find(c)
        if i == -1:
            out.append(c)
        else:
            out.append(letters[(i + k) % 26])
    return "".join(out)
