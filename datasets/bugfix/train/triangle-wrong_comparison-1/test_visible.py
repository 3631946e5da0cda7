"""Visible tests for triangle.py."""
from triangle import triangle


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("triangle(4, 5, 3)", triangle(4, 5, 3), 'scalene')


def test_2():
    check("triangle(6, 4, 2)", triangle(6, 4, 2), 'invalid')


def test_3():
    check("triangle(1, 5, 5)", triangle(1, 5, 5), 'isosceles')


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
