"""Hidden tests for to_binary.py: never shown to the agent."""
from to_binary import to_binary


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("to_binary(-84)", to_binary(-84), '-1010100')


def test_2():
    check("to_binary(-1)", to_binary(-1), '-1')


def test_3():
    check("to_binary(56)", to_binary(56), '111000')


def test_4():
    check("to_binary(13)", to_binary(13), '1101')


def test_5():
    check("to_binary(8)", to_binary(8), '1000')


def test_6():
    check("to_binary(395)", to_binary(395), '110001011')


def test_7():
    check("to_binary(-175)", to_binary(-175), '-10101111')


def test_8():
    check("to_binary(-176)", to_binary(-176), '-10110000')


def test_9():
    check("to_binary(-49)", to_binary(-49), '-110001')


def test_10():
    check("to_binary(-115)", to_binary(-115), '-1110011')


def test_11():
    check("to_binary(-35)", to_binary(-35), '-100011')


def test_12():
    check("to_binary(-6)", to_binary(-6), '-110')


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
