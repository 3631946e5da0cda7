"""Hidden tests for clock.py: never shown to the agent."""
from clock import clock


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("clock(43794)", clock(43794), '12:09:54')


def test_2():
    check("clock(197260)", clock(197260), '06:47:40')


def test_3():
    check("clock(188955)", clock(188955), '04:29:15')


def test_4():
    check("clock(126944)", clock(126944), '11:15:44')


def test_5():
    check("clock(3599)", clock(3599), '00:59:59')


def test_6():
    check("clock(0)", clock(0), '00:00:00')


def test_7():
    check("clock(64309)", clock(64309), '17:51:49')


def test_8():
    check("clock(123606)", clock(123606), '10:20:06')


def test_9():
    check("clock(159036)", clock(159036), '20:10:36')


def test_10():
    check("clock(164183)", clock(164183), '21:36:23')


def test_11():
    check("clock(115516)", clock(115516), '08:05:16')


def test_12():
    check("clock(18575)", clock(18575), '05:09:35')


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
