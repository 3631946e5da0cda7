"""Hidden tests for lcm.py: never shown to the agent."""
from lcm import lcm


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("lcm(4, 0)", lcm(4, 0), 0)


def test_2():
    check("lcm(0, 5)", lcm(0, 5), 0)


def test_3():
    check("lcm(3, 5)", lcm(3, 5), 15)


def test_4():
    check("lcm(20, 4)", lcm(20, 4), 20)


def test_5():
    check("lcm(17, 25)", lcm(17, 25), 425)


def test_6():
    check("lcm(27, 13)", lcm(27, 13), 351)


def test_7():
    check("lcm(17, 22)", lcm(17, 22), 374)


def test_8():
    check("lcm(17, 23)", lcm(17, 23), 391)


def test_9():
    check("lcm(28, 9)", lcm(28, 9), 252)


def test_10():
    check("lcm(2, 26)", lcm(2, 26), 26)


def test_11():
    check("lcm(4, 14)", lcm(4, 14), 28)


def test_12():
    check("lcm(8, 5)", lcm(8, 5), 40)


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
