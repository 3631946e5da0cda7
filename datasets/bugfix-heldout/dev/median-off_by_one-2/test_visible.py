"""Visible tests for median.py."""
from median import median


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("median([-4, 7, 9, 5, 11])", median([-4, 7, 9, 5, 11]), 7)


def test_2():
    check("median([-2, 12, 11, -1, 4, -4])", median([-2, 12, 11, -1, 4, -4]), 1.5)


def test_3():
    check("median([9, 4, 7, 0, -3, 5, 3])", median([9, 4, 7, 0, -3, 5, 3]), 4)


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
