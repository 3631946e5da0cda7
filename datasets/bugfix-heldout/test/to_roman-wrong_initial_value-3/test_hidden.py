"""Hidden tests for to_roman.py: never shown to the agent."""
from to_roman import to_roman


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("to_roman(1473)", to_roman(1473), 'MCDLXXIII')


def test_2():
    check("to_roman(3498)", to_roman(3498), 'MMMCDXCVIII')


def test_3():
    check("to_roman(14)", to_roman(14), 'XIV')


def test_4():
    check("to_roman(64)", to_roman(64), 'LXIV')


def test_5():
    check("to_roman(1642)", to_roman(1642), 'MDCXLII')


def test_6():
    check("to_roman(90)", to_roman(90), 'XC')


def test_7():
    check("to_roman(3808)", to_roman(3808), 'MMMDCCCVIII')


def test_8():
    check("to_roman(3207)", to_roman(3207), 'MMMCCVII')


def test_9():
    check("to_roman(40)", to_roman(40), 'XL')


def test_10():
    check("to_roman(3077)", to_roman(3077), 'MMMLXXVII')


def test_11():
    check("to_roman(1390)", to_roman(1390), 'MCCCXC')


def test_12():
    check("to_roman(2444)", to_roman(2444), 'MMCDXLIV')


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
