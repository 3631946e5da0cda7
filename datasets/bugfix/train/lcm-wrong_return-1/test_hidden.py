"""Hidden tests for lcm.py: never shown to the agent."""
from lcm import lcm


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("lcm(4, 0)", lcm(4, 0), 0)


def test_2():
    check("lcm(0, 5)", lcm(0, 5), 0)


def test_3():
    check("lcm(16, 28)", lcm(16, 28), 112)


def test_4():
    check("lcm(7, 18)", lcm(7, 18), 126)


def test_5():
    check("lcm(20, 4)", lcm(20, 4), 20)


def test_6():
    check("lcm(17, 22)", lcm(17, 22), 374)


def test_7():
    check("lcm(29, 22)", lcm(29, 22), 638)


def test_8():
    check("lcm(3, 5)", lcm(3, 5), 15)


def test_9():
    check("lcm(7, 21)", lcm(7, 21), 21)


def test_10():
    check("lcm(7, 20)", lcm(7, 20), 140)


def test_11():
    check("lcm(22, 28)", lcm(22, 28), 308)


def test_12():
    check("lcm(10, 10)", lcm(10, 10), 10)


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
