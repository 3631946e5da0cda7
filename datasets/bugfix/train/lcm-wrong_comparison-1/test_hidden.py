"""Hidden tests for lcm.py: never shown to the agent."""
from lcm import lcm


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("lcm(18, 5)", lcm(18, 5), 90)


def test_2():
    check("lcm(4, 0)", lcm(4, 0), 0)


def test_3():
    check("lcm(0, 5)", lcm(0, 5), 0)


def test_4():
    check("lcm(18, 2)", lcm(18, 2), 18)


def test_5():
    check("lcm(21, 19)", lcm(21, 19), 399)


def test_6():
    check("lcm(17, 22)", lcm(17, 22), 374)


def test_7():
    check("lcm(17, 25)", lcm(17, 25), 425)


def test_8():
    check("lcm(7, 20)", lcm(7, 20), 140)


def test_9():
    check("lcm(16, 28)", lcm(16, 28), 112)


def test_10():
    check("lcm(27, 13)", lcm(27, 13), 351)


def test_11():
    check("lcm(3, 5)", lcm(3, 5), 15)


def test_12():
    check("lcm(20, 4)", lcm(20, 4), 20)


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
