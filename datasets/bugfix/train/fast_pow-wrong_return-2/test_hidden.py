"""Hidden tests for fast_pow.py: never shown to the agent."""
from fast_pow import fast_pow


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("fast_pow(0, 6)", fast_pow(0, 6), 0)


def test_2():
    check("fast_pow(3, 0)", fast_pow(3, 0), 1)


def test_3():
    check("fast_pow(0, 8)", fast_pow(0, 8), 0)


def test_4():
    check("fast_pow(3, 3)", fast_pow(3, 3), 27)


def test_5():
    check("fast_pow(2, 2)", fast_pow(2, 2), 4)


def test_6():
    check("fast_pow(-2, 2)", fast_pow(-2, 2), 4)


def test_7():
    check("fast_pow(0, 9)", fast_pow(0, 9), 0)


def test_8():
    check("fast_pow(0, 1)", fast_pow(0, 1), 0)


def test_9():
    check("fast_pow(0, 2)", fast_pow(0, 2), 0)


def test_10():
    check("fast_pow(0, 3)", fast_pow(0, 3), 0)


def test_11():
    check("fast_pow(-2, 3)", fast_pow(-2, 3), -8)


def test_12():
    check("fast_pow(2, 1)", fast_pow(2, 1), 2)


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
