"""Hidden tests for shift_letters.py: never shown to the agent."""
from shift_letters import shift_letters


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("shift_letters(\"ac \", 33)", shift_letters("ac ", 33), 'hj ')


def test_2():
    check("shift_letters(\"zz\", 27)", shift_letters("zz", 27), 'aa')


def test_3():
    check("shift_letters(\"bzyz\", 20)", shift_letters("bzyz", 20), 'vtst')


def test_4():
    check("shift_letters(\"a b\", 2)", shift_letters("a b", 2), 'c d')


def test_5():
    check("shift_letters(\"-z z\", 21)", shift_letters("-z z", 21), '-u u')


def test_6():
    check("shift_letters(\"azbzb\", 24)", shift_letters("azbzb", 24), 'yxzxz')


def test_7():
    check("shift_letters(\"zbb\", 5)", shift_letters("zbb", 5), 'egg')


def test_8():
    check("shift_letters(\"ybbz\", 37)", shift_letters("ybbz", 37), 'jmmk')


def test_9():
    check("shift_letters(\"\", 5)", shift_letters("", 5), '')


def test_10():
    check("shift_letters(\"zy\", 17)", shift_letters("zy", 17), 'qp')


def test_11():
    check("shift_letters(\"xxzyc\", -13)", shift_letters("xxzyc", -13), 'kkmlp')


def test_12():
    check("shift_letters(\"hello\", 0)", shift_letters("hello", 0), 'hello')


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
