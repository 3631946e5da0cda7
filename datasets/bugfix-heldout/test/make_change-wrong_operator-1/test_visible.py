"""Visible tests for make_change.py."""
from make_change import make_change


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("make_change(0)", make_change(0), [])


def test_2():
    check("make_change(-1)", make_change(-1), [])


def test_3():
    check("make_change(21)", make_change(21), [0, 2, 0, 1])


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
