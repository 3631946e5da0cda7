"""Hidden tests for count_in_range.py: never shown to the agent."""
from count_in_range import count_in_range


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("count_in_range([4, 3, 1, 8, 0, 1, 4], 2, 3)", count_in_range([4, 3, 1, 8, 0, 1, 4], 2, 3), 0)


def test_2():
    check("count_in_range([2, 6, 9, 6, 6, 7, 3], 1, 5)", count_in_range([2, 6, 9, 6, 6, 7, 3], 1, 5), 2)


def test_3():
    check("count_in_range([6, 1], 0, 3)", count_in_range([6, 1], 0, 3), 1)


def test_4():
    check("count_in_range([2, 10, 5], 3, 3)", count_in_range([2, 10, 5], 3, 3), 0)


def test_5():
    check("count_in_range([2, 1, 10, 2], 5, 10)", count_in_range([2, 1, 10, 2], 5, 10), 0)


def test_6():
    check("count_in_range([9, 9, 2, 5, 8, 2, 2], 1, 5)", count_in_range([9, 9, 2, 5, 8, 2, 2], 1, 5), 3)


def test_7():
    check("count_in_range([0, 8, 4, 7], 5, 5)", count_in_range([0, 8, 4, 7], 5, 5), 0)


def test_8():
    check("count_in_range([7, 10, 9, 8, 4, 8, 7], 1, 1)", count_in_range([7, 10, 9, 8, 4, 8, 7], 1, 1), 0)


def test_9():
    check("count_in_range([6, 5, 9, 3], 2, 5)", count_in_range([6, 5, 9, 3], 2, 5), 1)


def test_10():
    check("count_in_range([10, 6, 3, 9, 1, 7, 1], 0, 2)", count_in_range([10, 6, 3, 9, 1, 7, 1], 0, 2), 2)


def test_11():
    check("count_in_range([9, 5, 10, 9, 6, 5], 3, 8)", count_in_range([9, 5, 10, 9, 6, 5], 3, 8), 3)


def test_12():
    check("count_in_range([7, 9, 4], 2, 5)", count_in_range([7, 9, 4], 2, 5), 1)


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
