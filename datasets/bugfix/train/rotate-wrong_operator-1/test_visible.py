"""Visible tests for rotate.py."""
from rotate import rotate


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("rotate([], 2)", rotate([], 2), [])


def test_2():
    check("rotate([], 3)", rotate([], 3), [])


def test_3():
    check("rotate([2, 3, 9, 7, 1, 4], 6)", rotate([2, 3, 9, 7, 1, 4], 6), [2, 3, 9, 7, 1, 4])


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
