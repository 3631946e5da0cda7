"""Hidden tests for to_roman.py: never shown to the agent."""
from to_roman import to_roman


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("to_roman(2226)", to_roman(2226), 'MMCCXXVI')


def test_2():
    check("to_roman(3262)", to_roman(3262), 'MMMCCLXII')


def test_3():
    check("to_roman(2646)", to_roman(2646), 'MMDCXLVI')


def test_4():
    check("to_roman(1473)", to_roman(1473), 'MCDLXXIII')


def test_5():
    check("to_roman(670)", to_roman(670), 'DCLXX')


def test_6():
    check("to_roman(3539)", to_roman(3539), 'MMMDXXXIX')


def test_7():
    check("to_roman(2592)", to_roman(2592), 'MMDXCII')


def test_8():
    check("to_roman(93)", to_roman(93), 'XCIII')


def test_9():
    check("to_roman(1642)", to_roman(1642), 'MDCXLII')


def test_10():
    check("to_roman(337)", to_roman(337), 'CCCXXXVII')


def test_11():
    check("to_roman(3077)", to_roman(3077), 'MMMLXXVII')


def test_12():
    check("to_roman(2703)", to_roman(2703), 'MMDCCIII')


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
