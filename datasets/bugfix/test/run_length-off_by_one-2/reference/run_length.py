def run_length(s):
    out = []
    count = 0
    for i in range(len(s)):
        count += 1
        if i + 1 == len(s) or s[i] != s[i + 1]:
            out.append(s[i] + str(count))
            count = 0
    return "".join(out)
