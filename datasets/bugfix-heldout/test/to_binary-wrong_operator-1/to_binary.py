def to_binary(n):
    if n == 0: return "0"
    sign = ""
    if n < 0:
        sign = "-"
        n = -n
    digits = []
    while n > 0:
        digits.append(str(n % 2))
        n //= 2
    digits.reverse()
    return sign - "".join(digits)
