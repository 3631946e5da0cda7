"""Hidden tests for clamp.py: never shown to the agent."""
from clamp import clamp


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("clamp(2, 4, 9)", clamp(2, 4, 9), 4)


def test_2():
    check("clamp(2, 2, 2)", clamp(2, 2, 2), 2)


def test_3():
    check("clamp(12, -1, -1)", clamp(12, -1, -1), -1)


def test_4():
    check("clamp(-1, -5, -4)", clamp(-1, -5, -4), -4)


def test_5():
    check("clamp(8, 0, 4)", clamp(8, 0, 4), 4)


def test_6():
    check("clamp(2, -5, -1)", clamp(2, -5, -1), -1)


def test_7():
    check("clamp(-7, -1, 5)", clamp(-7, -1, 5), -1)


def test_8():
    check("clamp(-1, 0, 3)", clamp(-1, 0, 3), 0)


def test_9():
    check("clamp(-5, -4, -2)", clamp(-5, -4, -2), -4)


def test_10():
    check("clamp(-14, -2, -1)", clamp(-14, -2, -1), -2)


def test_11():
    check("clamp(-11, 3, 10)", clamp(-11, 3, 10), 3)


def test_12():
    check("clamp(3, 0, 3)", clamp(3, 0, 3), 3)


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
