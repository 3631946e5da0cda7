"""Hidden tests for median.py: never shown to the agent."""
from median import median


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("median([-4, 7, 9, 5, 11])", median([-4, 7, 9, 5, 11]), 7)


def test_2():
    check("median([-2, 12, 11, -1, 4, -4])", median([-2, 12, 11, -1, 4, -4]), 1.5)


def test_3():
    check("median([9, 4, 7, 0, -3, 5, 3])", median([9, 4, 7, 0, -3, 5, 3]), 4)


def test_4():
    check("median([3, 4, 12, -4])", median([3, 4, 12, -4]), 3.5)


def test_5():
    check("median([-4, -3])", median([-4, -3]), -3.5)


def test_6():
    check("median([-3, 9])", median([-3, 9]), 3.0)


def test_7():
    check("median([])", median([]), None)


def test_8():
    check("median([-3])", median([-3]), -3)


def test_9():
    check("median([7, 10, 6])", median([7, 10, 6]), 7)


def test_10():
    check("median([5, 4, 6, 7, 3])", median([5, 4, 6, 7, 3]), 5)


def test_11():
    check("median([2, -2])", median([2, -2]), 0.0)


def test_12():
    check("median([0, -4, 2, 7, 11])", median([0, -4, 2, 7, 11]), 2)


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
