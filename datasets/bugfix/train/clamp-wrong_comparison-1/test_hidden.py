"""Hidden tests for clamp.py: never shown to the agent."""
from clamp import clamp


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("clamp(-7, -1, -1)", clamp(-7, -1, -1), -1)


def test_2():
    check("clamp(2, 0, 0)", clamp(2, 0, 0), 0)


def test_3():
    check("clamp(0, -4, -4)", clamp(0, -4, -4), -4)


def test_4():
    check("clamp(11, -2, 5)", clamp(11, -2, 5), 5)


def test_5():
    check("clamp(-4, 1, 8)", clamp(-4, 1, 8), 1)


def test_6():
    check("clamp(-11, -3, -3)", clamp(-11, -3, -3), -3)


def test_7():
    check("clamp(2, 2, 2)", clamp(2, 2, 2), 2)


def test_8():
    check("clamp(0, 0, 3)", clamp(0, 0, 3), 0)


def test_9():
    check("clamp(2, -1, -1)", clamp(2, -1, -1), -1)


def test_10():
    check("clamp(-8, 0, 3)", clamp(-8, 0, 3), 0)


def test_11():
    check("clamp(-1, 2, 6)", clamp(-1, 2, 6), 2)


def test_12():
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
