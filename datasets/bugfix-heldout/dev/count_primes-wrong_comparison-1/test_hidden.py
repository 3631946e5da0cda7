"""Hidden tests for count_primes.py: never shown to the agent."""
from count_primes import count_primes


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("count_primes(-3)", count_primes(-3), 0)


def test_2():
    check("count_primes(1)", count_primes(1), 0)


def test_3():
    check("count_primes(2)", count_primes(2), 1)


def test_4():
    check("count_primes(12)", count_primes(12), 5)


def test_5():
    check("count_primes(4)", count_primes(4), 2)


def test_6():
    check("count_primes(10)", count_primes(10), 4)


def test_7():
    check("count_primes(0)", count_primes(0), 0)


def test_8():
    check("count_primes(-2)", count_primes(-2), 0)


def test_9():
    check("count_primes(54)", count_primes(54), 16)


def test_10():
    check("count_primes(43)", count_primes(43), 14)


def test_11():
    check("count_primes(19)", count_primes(19), 8)


def test_12():
    check("count_primes(3)", count_primes(3), 2)


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
