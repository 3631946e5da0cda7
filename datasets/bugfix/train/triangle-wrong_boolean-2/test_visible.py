"""Visible tests for triangle.py."""
from triangle import triangle


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("triangle(3, 4, 1)", triangle(3, 4, 1), 'invalid')


def test_2():
    check("triangle(2, 1, 2)", triangle(2, 1, 2), 'isosceles')


def test_3():
    check("triangle(1, 0, 0)", triangle(1, 0, 0), 'invalid')


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
