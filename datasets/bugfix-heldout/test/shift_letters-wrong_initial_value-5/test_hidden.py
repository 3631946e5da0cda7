"""Hidden tests for shift_letters.py: never shown to the agent."""
from shift_letters import shift_letters


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("shift_letters(\"zy\", 17)", shift_letters("zy", 17), 'qp')


def test_2():
    check("shift_letters(\"azbzb\", 24)", shift_letters("azbzb", 24), 'yxzxz')


def test_3():
    check("shift_letters(\"bz\", 23)", shift_letters("bz", 23), 'yw')


def test_4():
    check("shift_letters(\"a\", -11)", shift_letters("a", -11), 'p')


def test_5():
    check("shift_letters(\"ybbz\", 37)", shift_letters("ybbz", 37), 'jmmk')


def test_6():
    check("shift_letters(\"zbb\", 5)", shift_letters("zbb", 5), 'egg')


def test_7():
    check("shift_letters(\"ac \", 33)", shift_letters("ac ", 33), 'hj ')


def test_8():
    check("shift_letters(\"abc\", -1)", shift_letters("abc", -1), 'zab')


def test_9():
    check("shift_letters(\"a\", 12)", shift_letters("a", 12), 'm')


def test_10():
    check("shift_letters(\"c\", 4)", shift_letters("c", 4), 'g')


def test_11():
    check("shift_letters(\" xxz\", 31)", shift_letters(" xxz", 31), ' cce')


def test_12():
    check("shift_letters(\"zz\", 27)", shift_letters("zz", 27), 'aa')


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
