"""Visible tests for make_change.py."""
from make_change import make_change


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("make_change(45)", make_change(45), [1, 2, 0, 0])


def test_2():
    check("make_change(40)", make_change(40), [1, 1, 1, 0])


def test_3():
    check("make_change(122)", make_change(122), [4, 2, 0, 2])


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
