"""Hidden tests for compress_ranges.py: never shown to the agent."""
from compress_ranges import compress_ranges


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("compress_ranges([4, 6, 7, 8, 9, 10])", compress_ranges([4, 6, 7, 8, 9, 10]), '4,6-10')


def test_2():
    check("compress_ranges([3, 4, 5, 6])", compress_ranges([3, 4, 5, 6]), '3-6')


def test_3():
    check("compress_ranges([3])", compress_ranges([3]), '3')


def test_4():
    check("compress_ranges([2, 3])", compress_ranges([2, 3]), '2-3')


def test_5():
    check("compress_ranges([1, 2])", compress_ranges([1, 2]), '1-2')


def test_6():
    check("compress_ranges([0, 2, 3, 5, 6, 7])", compress_ranges([0, 2, 3, 5, 6, 7]), '0,2-3,5-7')


def test_7():
    check("compress_ranges([])", compress_ranges([]), '')


def test_8():
    check("compress_ranges([0])", compress_ranges([0]), '0')


def test_9():
    check("compress_ranges([1, 2, 3, 5])", compress_ranges([1, 2, 3, 5]), '1-3,5')


def test_10():
    check("compress_ranges([1, 3])", compress_ranges([1, 3]), '1,3')


def test_11():
    check("compress_ranges([5, 7, 9, 11, 12, 13])", compress_ranges([5, 7, 9, 11, 12, 13]), '5,7,9,11-13')


def test_12():
    check("compress_ranges([0, 1, 2, 4])", compress_ranges([0, 1, 2, 4]), '0-2,4')


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
