"""Hidden tests for shift_letters.py: never shown to the agent."""
from shift_letters import shift_letters


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("shift_letters(\"ac \", 33)", shift_letters("ac ", 33), 'hj ')


def test_2():
    check("shift_letters(\"\", 5)", shift_letters("", 5), '')


def test_3():
    check("shift_letters(\"a b\", 2)", shift_letters("a b", 2), 'c d')


def test_4():
    check("shift_letters(\"-c\", 31)", shift_letters("-c", 31), '-h')


def test_5():
    check("shift_letters(\"-zbyy\", 7)", shift_letters("-zbyy", 7), '-giff')


def test_6():
    check("shift_letters(\"axxa a\", 17)", shift_letters("axxa a", 17), 'roor r')


def test_7():
    check("shift_letters(\"c\", 4)", shift_letters("c", 4), 'g')


def test_8():
    check("shift_letters(\"a\", 12)", shift_letters("a", 12), 'm')


def test_9():
    check("shift_letters(\"bzc y\", -14)", shift_letters("bzc y", -14), 'nlo k')


def test_10():
    check("shift_letters(\"bzyz\", 20)", shift_letters("bzyz", 20), 'vtst')


def test_11():
    check("shift_letters(\"zx\", 15)", shift_letters("zx", 15), 'om')


def test_12():
    check("shift_letters(\"zbb\", 5)", shift_letters("zbb", 5), 'egg')


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
