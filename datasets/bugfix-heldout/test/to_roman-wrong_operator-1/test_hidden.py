"""Hidden tests for to_roman.py: never shown to the agent."""
from to_roman import to_roman


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("to_roman(670)", to_roman(670), 'DCLXX')


def test_2():
    check("to_roman(2444)", to_roman(2444), 'MMCDXLIV')


def test_3():
    check("to_roman(14)", to_roman(14), 'XIV')


def test_4():
    check("to_roman(337)", to_roman(337), 'CCCXXXVII')


def test_5():
    check("to_roman(3539)", to_roman(3539), 'MMMDXXXIX')


def test_6():
    check("to_roman(64)", to_roman(64), 'LXIV')


def test_7():
    check("to_roman(3999)", to_roman(3999), 'MMMCMXCIX')


def test_8():
    check("to_roman(9)", to_roman(9), 'IX')


def test_9():
    check("to_roman(3498)", to_roman(3498), 'MMMCDXCVIII')


def test_10():
    check("to_roman(3262)", to_roman(3262), 'MMMCCLXII')


def test_11():
    check("to_roman(1498)", to_roman(1498), 'MCDXCVIII')


def test_12():
    check("to_roman(736)", to_roman(736), 'DCCXXXVI')


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
