"""Hidden tests for shift_letters.py: never shown to the agent."""
from shift_letters import shift_letters


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("shift_letters(\"\", 5)", shift_letters("", 5), '')


def test_2():
    check("shift_letters(\"bza-xy\", 16)", shift_letters("bza-xy", 16), 'rpq-no')


def test_3():
    check("shift_letters(\"azbzb\", 24)", shift_letters("azbzb", 24), 'yxzxz')


def test_4():
    check("shift_letters(\"axxa a\", 17)", shift_letters("axxa a", 17), 'roor r')


def test_5():
    check("shift_letters(\"zx\", 15)", shift_letters("zx", 15), 'om')


def test_6():
    check("shift_letters(\"-z z\", 21)", shift_letters("-z z", 21), '-u u')


def test_7():
    check("shift_letters(\"-xx y\", 5)", shift_letters("-xx y", 5), '-cc d')


def test_8():
    check("shift_letters(\"bzc y\", -14)", shift_letters("bzc y", -14), 'nlo k')


def test_9():
    check("shift_letters(\"hello\", 0)", shift_letters("hello", 0), 'hello')


def test_10():
    check("shift_letters(\"y-xyab\", 1)", shift_letters("y-xyab", 1), 'z-yzbc')


def test_11():
    check("shift_letters(\"xxzyc\", -13)", shift_letters("xxzyc", -13), 'kkmlp')


def test_12():
    check("shift_letters(\"byyx\", 21)", shift_letters("byyx", 21), 'wtts')


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
