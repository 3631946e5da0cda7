"""Hidden tests for to_roman.py: never shown to the agent."""
from to_roman import to_roman


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("to_roman(3808)", to_roman(3808), 'MMMDCCCVIII')


def test_2():
    check("to_roman(2226)", to_roman(2226), 'MMCCXXVI')


def test_3():
    check("to_roman(780)", to_roman(780), 'DCCLXXX')


def test_4():
    check("to_roman(1390)", to_roman(1390), 'MCCCXC')


def test_5():
    check("to_roman(3030)", to_roman(3030), 'MMMXXX')


def test_6():
    check("to_roman(736)", to_roman(736), 'DCCXXXVI')


def test_7():
    check("to_roman(2703)", to_roman(2703), 'MMDCCIII')


def test_8():
    check("to_roman(1338)", to_roman(1338), 'MCCCXXXVIII')


def test_9():
    check("to_roman(670)", to_roman(670), 'DCLXX')


def test_10():
    check("to_roman(3539)", to_roman(3539), 'MMMDXXXIX')


def test_11():
    check("to_roman(40)", to_roman(40), 'XL')


def test_12():
    check("to_roman(3262)", to_roman(3262), 'MMMCCLXII')


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
