"""Visible tests for second_largest.py."""
from second_largest import second_largest


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("second_largest([1, 5, 3, 6])", second_largest([1, 5, 3, 6]), 5)


def test_2():
    check("second_largest([6, 0])", second_largest([6, 0]), 0)


def test_3():
    check("second_largest([5, 8, 8, 4, 0])", second_largest([5, 8, 8, 4, 0]), 5)


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
