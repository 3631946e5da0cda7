"""Hidden tests for histogram.py: never shown to the agent."""
from histogram import histogram


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("histogram([5], 3, 1)", histogram([5], 3, 1), [1])


def test_2():
    check("histogram([12, 8, 3, 1, -2, 0], 0, 2)", histogram([12, 8, 3, 1, -2, 0], 0, 2), [])


def test_3():
    check("histogram([-1, 0], 0, 2)", histogram([-1, 0], 0, 2), [])


def test_4():
    check("histogram([12, 11], 2, 1)", histogram([12, 11], 2, 1), [2])


def test_5():
    check("histogram([3, 3], 1, 4)", histogram([3, 3], 1, 4), [0, 0, 0, 2])


def test_6():
    check("histogram([2, 3, -2, 7, 12, 11], 2, 1)", histogram([2, 3, -2, 7, 12, 11], 2, 1), [5])


def test_7():
    check("histogram([1, 9, 6, 1, 1, 14], -1, 1)", histogram([1, 9, 6, 1, 1, 14], -1, 1), [])


def test_8():
    check("histogram([2], -1, 2)", histogram([2], -1, 2), [])


def test_9():
    check("histogram([10, 5, 11, 3], 0, 2)", histogram([10, 5, 11, 3], 0, 2), [])


def test_10():
    check("histogram([4, -2], -1, 4)", histogram([4, -2], -1, 4), [])


def test_11():
    check("histogram([9, 14, 4, -1, -2, -1], -1, 1)", histogram([9, 14, 4, -1, -2, -1], -1, 1), [])


def test_12():
    check("histogram([1, 2, 3], 0, 2)", histogram([1, 2, 3], 0, 2), [])


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
