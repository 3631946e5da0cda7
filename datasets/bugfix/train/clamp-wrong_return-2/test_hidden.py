"""Hidden tests for clamp.py: never shown to the agent."""
from clamp import clamp


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("clamp(5, 0, 3)", clamp(5, 0, 3), 3)


def test_2():
    check("clamp(-15, -1, 4)", clamp(-15, -1, 4), -1)


def test_3():
    check("clamp(11, -2, 5)", clamp(11, -2, 5), 5)


def test_4():
    check("clamp(-15, -3, -2)", clamp(-15, -3, -2), -3)


def test_5():
    check("clamp(-2, 3, 6)", clamp(-2, 3, 6), 3)


def test_6():
    check("clamp(-4, -1, 2)", clamp(-4, -1, 2), -1)


def test_7():
    check("clamp(11, 4, 9)", clamp(11, 4, 9), 9)


def test_8():
    check("clamp(3, 0, 3)", clamp(3, 0, 3), 3)


def test_9():
    check("clamp(6, -4, -1)", clamp(6, -4, -1), -1)


def test_10():
    check("clamp(2, -1, -1)", clamp(2, -1, -1), -1)


def test_11():
    check("clamp(-3, -4, -2)", clamp(-3, -4, -2), -3)


def test_12():
    check("clamp(10, -5, -2)", clamp(10, -5, -2), -2)


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
