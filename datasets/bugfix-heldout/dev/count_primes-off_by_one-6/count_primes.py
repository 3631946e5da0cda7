def is_prime(k):
    if k < 2: return False
    d = 2
    while d * d <= k:
        if k % d == 1:
            return False
        d += 1
    return True


def count_primes(n):
    count = 0
    for k in range(2, n + 1):
        if is_prime(k):
            count += 1
    return count
