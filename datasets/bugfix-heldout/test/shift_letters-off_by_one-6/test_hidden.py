"""Hidden tests for shift_letters.py: never shown to the agent."""
from shift_letters import shift_letters


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("shift_letters(\"hello\", 0)", shift_letters("hello", 0), 'hello')


def test_2():
    check("shift_letters(\"byyx\", 21)", shift_letters("byyx", 21), 'wtts')


def test_3():
    check("shift_letters(\"c\", 4)", shift_letters("c", 4), 'g')


def test_4():
    check("shift_letters(\"-zbyy\", 7)", shift_letters("-zbyy", 7), '-giff')


def test_5():
    check("shift_letters(\"axxa a\", 17)", shift_letters("axxa a", 17), 'roor r')


def test_6():
    check("shift_letters(\"yaz\", -9)", shift_letters("yaz", -9), 'prq')


def test_7():
    check("shift_letters(\"\", 5)", shift_letters("", 5), '')


def test_8():
    check("shift_letters(\"abc\", 1)", shift_letters("abc", 1), 'bcd')


def test_9():
    check("shift_letters(\"a b\", 2)", shift_letters("a b", 2), 'c d')


def test_10():
    check("shift_letters(\"x-\", 1)", shift_letters("x-", 1), 'y-')


def test_11():
    check("shift_letters(\"y-xyab\", 1)", shift_letters("y-xyab", 1), 'z-yzbc')


def test_12():
    check("shift_letters(\"a\", 12)", shift_letters("a", 12), 'm')


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
