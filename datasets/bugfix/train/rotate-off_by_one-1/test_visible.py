"""Visible tests for rotate.py."""
from rotate import rotate


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("rotate([1, 3, 7, 3], 3)", rotate([1, 3, 7, 3], 3), [3, 7, 3, 1])


def test_2():
    check("rotate([], 0)", rotate([], 0), [])


def test_3():
    check("rotate([], 3)", rotate([], 3), [])


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
