"""Hidden tests for lcm.py: never shown to the agent."""
from lcm import lcm


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("lcm(0, 5)", lcm(0, 5), 0)


def test_2():
    check("lcm(22, 22)", lcm(22, 22), 22)


def test_3():
    check("lcm(4, 0)", lcm(4, 0), 0)


def test_4():
    check("lcm(7, 7)", lcm(7, 7), 7)


def test_5():
    check("lcm(9, 10)", lcm(9, 10), 90)


def test_6():
    check("lcm(7, 20)", lcm(7, 20), 140)


def test_7():
    check("lcm(22, 28)", lcm(22, 28), 308)


def test_8():
    check("lcm(2, 23)", lcm(2, 23), 46)


def test_9():
    check("lcm(1, 9)", lcm(1, 9), 9)


def test_10():
    check("lcm(27, 8)", lcm(27, 8), 216)


def test_11():
    check("lcm(27, 13)", lcm(27, 13), 351)


def test_12():
    check("lcm(17, 23)", lcm(17, 23), 391)


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
