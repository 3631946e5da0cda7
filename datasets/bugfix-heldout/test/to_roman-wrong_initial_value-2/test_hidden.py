"""Hidden tests for to_roman.py: never shown to the agent."""
from to_roman import to_roman


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("to_roman(1498)", to_roman(1498), 'MCDXCVIII')


def test_2():
    check("to_roman(844)", to_roman(844), 'DCCCXLIV')


def test_3():
    check("to_roman(4)", to_roman(4), 'IV')


def test_4():
    check("to_roman(1473)", to_roman(1473), 'MCDLXXIII')


def test_5():
    check("to_roman(3030)", to_roman(3030), 'MMMXXX')


def test_6():
    check("to_roman(2)", to_roman(2), 'II')


def test_7():
    check("to_roman(1642)", to_roman(1642), 'MDCXLII')


def test_8():
    check("to_roman(2167)", to_roman(2167), 'MMCLXVII')


def test_9():
    check("to_roman(2226)", to_roman(2226), 'MMCCXXVI')


def test_10():
    check("to_roman(2646)", to_roman(2646), 'MMDCXLVI')


def test_11():
    check("to_roman(3999)", to_roman(3999), 'MMMCMXCIX')


def test_12():
    check("to_roman(93)", to_roman(93), 'XCIII')


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
