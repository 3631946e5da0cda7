"""Hidden tests for median.py: never shown to the agent."""
from median import median


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("median([-2, -3, -4, 6, 1, 0, 7])", median([-2, -3, -4, 6, 1, 0, 7]), 0)


def test_2():
    check("median([1, 12, 9])", median([1, 12, 9]), 9)


def test_3():
    check("median([3, 4, 12, -4])", median([3, 4, 12, -4]), 3.5)


def test_4():
    check("median([8, 1, 12, 6])", median([8, 1, 12, 6]), 7.0)


def test_5():
    check("median([4, 1, 3, 2])", median([4, 1, 3, 2]), 2.5)


def test_6():
    check("median([9, 11])", median([9, 11]), 10.0)


def test_7():
    check("median([-3])", median([-3]), -3)


def test_8():
    check("median([5, 5, 1, 9, 7])", median([5, 5, 1, 9, 7]), 5)


def test_9():
    check("median([-1])", median([-1]), -1)


def test_10():
    check("median([-4, -1, 12, 2, 9])", median([-4, -1, 12, 2, 9]), 2)


def test_11():
    check("median([])", median([]), None)


def test_12():
    check("median([-1, 11, -3, -3, 10, -1, 2])", median([-1, 11, -3, -3, 10, -1, 2]), -1)


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
