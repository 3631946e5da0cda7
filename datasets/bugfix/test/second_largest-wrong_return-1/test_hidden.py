"""Hidden tests for second_largest.py: never shown to the agent."""
from second_largest import second_largest


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("second_largest([])", second_largest([]), None)


def test_2():
    check("second_largest([7, 0, 3, 9])", second_largest([7, 0, 3, 9]), 7)


def test_3():
    check("second_largest([1])", second_largest([1]), None)


def test_4():
    check("second_largest([5, 5, 4])", second_largest([5, 5, 4]), 4)


def test_5():
    check("second_largest([0, 2, 8])", second_largest([0, 2, 8]), 2)


def test_6():
    check("second_largest([3, 5, 9, 5])", second_largest([3, 5, 9, 5]), 5)


def test_7():
    check("second_largest([0])", second_largest([0]), None)


def test_8():
    check("second_largest([2])", second_largest([2]), None)


def test_9():
    check("second_largest([7, 7, 9])", second_largest([7, 7, 9]), 7)


def test_10():
    check("second_largest([7, 1, 1, 1, 0])", second_largest([7, 1, 1, 1, 0]), 1)


def test_11():
    check("second_largest([2, 8, 9, 8])", second_largest([2, 8, 9, 8]), 8)


def test_12():
    check("second_largest([5, 9, 4, 1, 0])", second_largest([5, 9, 4, 1, 0]), 5)


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
