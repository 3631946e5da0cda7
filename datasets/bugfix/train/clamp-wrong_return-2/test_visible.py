"""Visible tests for clamp.py."""
from clamp import clamp


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("clamp(5, 0, 3)", clamp(5, 0, 3), 3)


def test_2():
    check("clamp(-15, -1, 4)", clamp(-15, -1, 4), -1)


def test_3():
    check("clamp(11, -2, 5)", clamp(11, -2, 5), 5)


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
