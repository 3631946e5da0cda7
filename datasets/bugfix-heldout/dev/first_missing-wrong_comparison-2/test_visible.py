"""Visible tests for first_missing.py."""
from first_missing import first_missing


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("first_missing([2])", first_missing([2]), 1)


def test_2():
    check("first_missing([1, 2, 3])", first_missing([1, 2, 3]), 4)


def test_3():
    check("first_missing([2, 6, -1, 4, -2])", first_missing([2, 6, -1, 4, -2]), 1)


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
