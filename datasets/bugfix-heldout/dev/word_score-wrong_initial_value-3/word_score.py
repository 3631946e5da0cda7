def word_score(word):
    one = "aeioulnrst"
    two = "dg"
    total = None
    for c in word:
        if one.find(c) >= 0:
            total += 1
        elif two.find(c) >= 0:
            total += 2
        else:
            total += 3
    return total
