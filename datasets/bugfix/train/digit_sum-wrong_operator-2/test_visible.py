"""Visible tests for digit_sum.py."""
from digit_sum import digit_sum


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("digit_sum(0)", digit_sum(0), 0)


def test_2():
    check("digit_sum(3133)", digit_sum(3133), 10)


def test_3():
    check("digit_sum(10)", digit_sum(10), 1)


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
