"""Hidden tests for shift_letters.py: never shown to the agent."""
from shift_letters import shift_letters


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("shift_letters(\"cx\", 9)", shift_letters("cx", 9), 'lg')


def test_2():
    check("shift_letters(\"-c\", 31)", shift_letters("-c", 31), '-h')


def test_3():
    check("shift_letters(\"azbzb\", 24)", shift_letters("azbzb", 24), 'yxzxz')


def test_4():
    check("shift_letters(\"xc-a\", 15)", shift_letters("xc-a", 15), 'mr-p')


def test_5():
    check("shift_letters(\"bzc y\", -14)", shift_letters("bzc y", -14), 'nlo k')


def test_6():
    check("shift_letters(\"\", 5)", shift_letters("", 5), '')


def test_7():
    check("shift_letters(\"c \", 27)", shift_letters("c ", 27), 'd ')


def test_8():
    check("shift_letters(\"za\", -11)", shift_letters("za", -11), 'op')


def test_9():
    check("shift_letters(\"bz\", 23)", shift_letters("bz", 23), 'yw')


def test_10():
    check("shift_letters(\"a\", 12)", shift_letters("a", 12), 'm')


def test_11():
    check("shift_letters(\"yaz\", -9)", shift_letters("yaz", -9), 'prq')


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
