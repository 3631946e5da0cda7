"""Visible tests for median.py."""
from median import median


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("median([-2, -3, -4, 6, 1, 0, 7])", median([-2, -3, -4, 6, 1, 0, 7]), 0)


def test_2():
    check("median([1, 12, 9])", median([1, 12, 9]), 9)


def test_3():
    check("median([3, 4, 12, -4])", median([3, 4, 12, -4]), 3.5)


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
