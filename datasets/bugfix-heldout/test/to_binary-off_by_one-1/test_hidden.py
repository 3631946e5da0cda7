"""Hidden tests for to_binary.py: never shown to the agent."""
from to_binary import to_binary


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("to_binary(352)", to_binary(352), '101100000')


def test_2():
    check("to_binary(255)", to_binary(255), '11111111')


def test_3():
    check("to_binary(0)", to_binary(0), '0')


def test_4():
    check("to_binary(1)", to_binary(1), '1')


def test_5():
    check("to_binary(354)", to_binary(354), '101100010')


def test_6():
    check("to_binary(-1)", to_binary(-1), '-1')


def test_7():
    check("to_binary(-6)", to_binary(-6), '-110')


def test_8():
    check("to_binary(146)", to_binary(146), '10010010')


def test_9():
    check("to_binary(395)", to_binary(395), '110001011')


def test_10():
    check("to_binary(-84)", to_binary(-84), '-1010100')


def test_11():
    check("to_binary(17)", to_binary(17), '10001')


def test_12():
    check("to_binary(293)", to_binary(293), '100100101')


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
