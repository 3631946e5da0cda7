"""Hidden tests for clamp.py: never shown to the agent."""
from clamp import clamp


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("clamp(-7, -1, -1)", clamp(-7, -1, -1), -1)


def test_2():
    check("clamp(6, -4, -1)", clamp(6, -4, -1), -1)


def test_3():
    check("clamp(-2, 2, 7)", clamp(-2, 2, 7), 2)


def test_4():
    check("clamp(0, -4, -4)", clamp(0, -4, -4), -4)


def test_5():
    check("clamp(3, 0, 5)", clamp(3, 0, 5), 3)


def test_6():
    check("clamp(11, -2, 5)", clamp(11, -2, 5), 5)


def test_7():
    check("clamp(-2, 3, 6)", clamp(-2, 3, 6), 3)


def test_8():
    check("clamp(-15, -3, -2)", clamp(-15, -3, -2), -3)


def test_9():
    check("clamp(-12, -5, 1)", clamp(-12, -5, 1), -5)


def test_10():
    check("clamp(3, 0, 3)", clamp(3, 0, 3), 3)


def test_11():
    check("clamp(-1, 0, 3)", clamp(-1, 0, 3), 0)


def test_12():
    check("clamp(-14, -3, 4)", clamp(-14, -3, 4), -3)


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
