"""Hidden tests for median.py: never shown to the agent."""
from median import median


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("median([-3, 0, 8, 6])", median([-3, 0, 8, 6]), 3.0)


def test_2():
    check("median([-2, -3, -4, 6, 1, 0, 7])", median([-2, -3, -4, 6, 1, 0, 7]), 0)


def test_3():
    check("median([1, 3])", median([1, 3]), 2.0)


def test_4():
    check("median([4, 1, 3, 2])", median([4, 1, 3, 2]), 2.5)


def test_5():
    check("median([1, 11, 11, 9, -2])", median([1, 11, 11, 9, -2]), 9)


def test_6():
    check("median([0, 2, 4, 9])", median([0, 2, 4, 9]), 3.0)


def test_7():
    check("median([9, 11])", median([9, 11]), 10.0)


def test_8():
    check("median([-4, 4])", median([-4, 4]), 0.0)


def test_9():
    check("median([1, 10])", median([1, 10]), 5.5)


def test_10():
    check("median([-1, 11, -3, -3, 10, -1, 2])", median([-1, 11, -3, -3, 10, -1, 2]), -1)


def test_11():
    check("median([9, 4, 7, 0, -3, 5, 3])", median([9, 4, 7, 0, -3, 5, 3]), 4)


def test_12():
    check("median([0, 8])", median([0, 8]), 4.0)


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
