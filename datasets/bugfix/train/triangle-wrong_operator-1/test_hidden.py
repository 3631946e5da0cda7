"""Hidden tests for triangle.py: never shown to the agent."""
from triangle import triangle


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("triangle(3, 2, 2)", triangle(3, 2, 2), 'isosceles')


def test_2():
    check("triangle(1, 2, 3)", triangle(1, 2, 3), 'invalid')


def test_3():
    check("triangle(0, 4, 3)", triangle(0, 4, 3), 'invalid')


def test_4():
    check("triangle(1, 5, 5)", triangle(1, 5, 5), 'isosceles')


def test_5():
    check("triangle(6, 4, 5)", triangle(6, 4, 5), 'scalene')


def test_6():
    check("triangle(2, 2, 3)", triangle(2, 2, 3), 'isosceles')


def test_7():
    check("triangle(2, 6, 3)", triangle(2, 6, 3), 'invalid')


def test_8():
    check("triangle(1, 0, 0)", triangle(1, 0, 0), 'invalid')


def test_9():
    check("triangle(2, 0, 0)", triangle(2, 0, 0), 'invalid')


def test_10():
    check("triangle(1, 1, 5)", triangle(1, 1, 5), 'invalid')


def test_11():
    check("triangle(3, 1, 0)", triangle(3, 1, 0), 'invalid')


def test_12():
    check("triangle(3, 4, 1)", triangle(3, 4, 1), 'invalid')


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
