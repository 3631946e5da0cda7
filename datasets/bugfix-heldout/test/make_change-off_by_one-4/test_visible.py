"""Visible tests for make_change.py."""
from make_change import make_change


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("make_change(41)", make_change(41), [1, 1, 1, 1])


def test_2():
    check("make_change(75)", make_change(75), [3, 0, 0, 0])


def test_3():
    check("make_change(50)", make_change(50), [2, 0, 0, 0])


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
