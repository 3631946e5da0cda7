"""Hidden tests for clock.py: never shown to the agent."""
from clock import clock


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("clock(86399)", clock(86399), '23:59:59')


def test_2():
    check("clock(3600)", clock(3600), '01:00:00')


def test_3():
    check("clock(88848)", clock(88848), '00:40:48')


def test_4():
    check("clock(100304)", clock(100304), '03:51:44')


def test_5():
    check("clock(96188)", clock(96188), '02:43:08')


def test_6():
    check("clock(146113)", clock(146113), '16:35:13')


def test_7():
    check("clock(15879)", clock(15879), '04:24:39')


def test_8():
    check("clock(145848)", clock(145848), '16:30:48')


def test_9():
    check("clock(16475)", clock(16475), '04:34:35')


def test_10():
    check("clock(137257)", clock(137257), '14:07:37')


def test_11():
    check("clock(6849)", clock(6849), '01:54:09')


def test_12():
    check("clock(178132)", clock(178132), '01:28:52')


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
