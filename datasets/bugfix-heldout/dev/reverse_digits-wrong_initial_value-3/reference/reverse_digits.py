def reverse_digits(n):
    sign = 1
    if n < 0:
        sign = -1
        n = -n
    out = 0
    while n > 0:
        out = out * 10 + n % 10
        n //= 10
    return sign * out
