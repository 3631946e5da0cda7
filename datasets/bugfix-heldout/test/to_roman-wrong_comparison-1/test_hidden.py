"""Hidden tests for to_roman.py: never shown to the agent."""
from to_roman import to_roman


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("to_roman(1390)", to_roman(1390), 'MCCCXC')


def test_2():
    check("to_roman(1338)", to_roman(1338), 'MCCCXXXVIII')


def test_3():
    check("to_roman(3999)", to_roman(3999), 'MMMCMXCIX')


def test_4():
    check("to_roman(1498)", to_roman(1498), 'MCDXCVIII')


def test_5():
    check("to_roman(1)", to_roman(1), 'I')


def test_6():
    check("to_roman(271)", to_roman(271), 'CCLXXI')


def test_7():
    check("to_roman(3030)", to_roman(3030), 'MMMXXX')


def test_8():
    check("to_roman(1473)", to_roman(1473), 'MCDLXXIII')


def test_9():
    check("to_roman(3498)", to_roman(3498), 'MMMCDXCVIII')


def test_10():
    check("to_roman(3808)", to_roman(3808), 'MMMDCCCVIII')


def test_11():
    check("to_roman(780)", to_roman(780), 'DCCLXXX')


def test_12():
    check("to_roman(400)", to_roman(400), 'CD')


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
