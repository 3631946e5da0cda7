"""Hidden tests for to_roman.py: never shown to the agent."""
from to_roman import to_roman


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("to_roman(2)", to_roman(2), 'II')


def test_2():
    check("to_roman(1994)", to_roman(1994), 'MCMXCIV')


def test_3():
    check("to_roman(2934)", to_roman(2934), 'MMCMXXXIV')


def test_4():
    check("to_roman(64)", to_roman(64), 'LXIV')


def test_5():
    check("to_roman(40)", to_roman(40), 'XL')


def test_6():
    check("to_roman(93)", to_roman(93), 'XCIII')


def test_7():
    check("to_roman(400)", to_roman(400), 'CD')


def test_8():
    check("to_roman(4)", to_roman(4), 'IV')


def test_9():
    check("to_roman(14)", to_roman(14), 'XIV')


def test_10():
    check("to_roman(3030)", to_roman(3030), 'MMMXXX')


def test_11():
    check("to_roman(2592)", to_roman(2592), 'MMDXCII')


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
