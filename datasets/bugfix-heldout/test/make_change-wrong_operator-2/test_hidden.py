"""Hidden tests for make_change.py: never shown to the agent."""
from make_change import make_change


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("make_change(0)", make_change(0), [])


def test_2():
    check("make_change(120)", make_change(120), [4, 2, 0, 0])


def test_3():
    check("make_change(-1)", make_change(-1), [])


def test_4():
    check("make_change(4)", make_change(4), [0, 0, 0, 4])


def test_5():
    check("make_change(20)", make_change(20), [0, 2, 0, 0])


def test_6():
    check("make_change(96)", make_change(96), [3, 2, 0, 1])


def test_7():
    check("make_change(50)", make_change(50), [2, 0, 0, 0])


def test_8():
    check("make_change(75)", make_change(75), [3, 0, 0, 0])


def test_9():
    check("make_change(40)", make_change(40), [1, 1, 1, 0])


def test_10():
    check("make_change(99)", make_change(99), [3, 2, 0, 4])


def test_11():
    check("make_change(43)", make_change(43), [1, 1, 1, 3])


def test_12():
    check("make_change(2)", make_change(2), [0, 0, 0, 2])


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
