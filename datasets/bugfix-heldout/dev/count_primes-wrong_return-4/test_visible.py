"""Visible tests for count_primes.py."""
from count_primes import count_primes


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("count_primes(25)", count_primes(25), 9)


def test_2():
    check("count_primes(0)", count_primes(0), 0)


def test_3():
    check("count_primes(-3)", count_primes(-3), 0)


if __name__ == "__main__":
    import sys
    failed = 0
    for name, fn in list(globals().items()):
        if name.startswith("test_"):
            try:
                fn()
                print("PASS", name)
            except Exception as e:
                failed += 1
                print("FAIL", name, type(e).__name__, e)
    sys.exit(1 if failed else 0)
