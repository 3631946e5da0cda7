"""Hidden tests for clock.py: never shown to the agent."""
from clock import clock


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("clock(96188)", clock(96188), '02:43:08')


def test_2():
    check("clock(60)", clock(60), '00:01:00')


def test_3():
    check("clock(0)", clock(0), '00:00:00')


def test_4():
    check("clock(116490)", clock(116490), '08:21:30')


def test_5():
    check("clock(18575)", clock(18575), '05:09:35')


def test_6():
    check("clock(126944)", clock(126944), '11:15:44')


def test_7():
    check("clock(59)", clock(59), '00:00:59')


def test_8():
    check("clock(129667)", clock(129667), '12:01:07')


def test_9():
    check("clock(145848)", clock(145848), '16:30:48')


def test_10():
    check("clock(88848)", clock(88848), '00:40:48')


def test_11():
    check("clock(16475)", clock(16475), '04:34:35')


def test_12():
    check("clock(123606)", clock(123606), '10:20:06')


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
