"""Visible tests for clamp.py."""
from clamp import clamp


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("clamp(0, 0, 3)", clamp(0, 0, 3), 0)


def test_2():
    check("clamp(-10, 4, 6)", clamp(-10, 4, 6), 4)


def test_3():
    check("clamp(-1, 0, 3)", clamp(-1, 0, 3), 0)


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
