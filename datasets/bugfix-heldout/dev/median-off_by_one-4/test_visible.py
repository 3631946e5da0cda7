"""Visible tests for median.py."""
from median import median


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("median([6, 4, 5, 11])", median([6, 4, 5, 11]), 5.5)


def test_2():
    check("median([1, 11, 11, 9, -2])", median([1, 11, 11, 9, -2]), 9)


def test_3():
    check("median([-1, 11, -3, -3, 10, -1, 2])", median([-1, 11, -3, -3, 10, -1, 2]), -1)


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
