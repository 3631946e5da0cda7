"""Visible tests for count_primes.py."""
from count_primes import count_primes


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("count_primes(-2)", count_primes(-2), 0)


def test_2():
    check("count_primes(3)", count_primes(3), 2)


def test_3():
    check("count_primes(23)", count_primes(23), 9)


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
