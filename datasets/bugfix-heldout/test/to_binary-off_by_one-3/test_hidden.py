"""Hidden tests for to_binary.py: never shown to the agent."""
from to_binary import to_binary


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("to_binary(0)", to_binary(0), '0')


def test_2():
    check("to_binary(354)", to_binary(354), '101100010')


def test_3():
    check("to_binary(-151)", to_binary(-151), '-10010111')


def test_4():
    check("to_binary(-115)", to_binary(-115), '-1110011')


def test_5():
    check("to_binary(2)", to_binary(2), '10')


def test_6():
    check("to_binary(265)", to_binary(265), '100001001')


def test_7():
    check("to_binary(352)", to_binary(352), '101100000')


def test_8():
    check("to_binary(183)", to_binary(183), '10110111')


def test_9():
    check("to_binary(-97)", to_binary(-97), '-1100001')


def test_10():
    check("to_binary(8)", to_binary(8), '1000')


def test_11():
    check("to_binary(65)", to_binary(65), '1000001')


def test_12():
    check("to_binary(17)", to_binary(17), '10001')


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
