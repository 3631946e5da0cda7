"""Visible tests for triangle.py."""
from triangle import triangle


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("triangle(5, 3, 3)", triangle(5, 3, 3), 'isosceles')


def test_2():
    check("triangle(1, 4, 5)", triangle(1, 4, 5), 'invalid')


def test_3():
    check("triangle(2, 1, 2)", triangle(2, 1, 2), 'isosceles')


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
