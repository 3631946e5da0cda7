"""Hidden tests for max_window_sum.py: never shown to the agent."""
from max_window_sum import max_window_sum


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("max_window_sum([-5, -4, -5, -1, 3, -4], 3)", max_window_sum([-5, -4, -5, -1, 3, -4], 3), -2)


def test_2():
    check("max_window_sum([2, -3, 8, -5, 3, 2, 7], 1)", max_window_sum([2, -3, 8, -5, 3, 2, 7], 1), 8)


def test_3():
    check("max_window_sum([-2, -5, 0, 9, 0, 5, 4], 0)", max_window_sum([-2, -5, 0, 9, 0, 5, 4], 0), None)


def test_4():
    check("max_window_sum([-3, -1, -2], 2)", max_window_sum([-3, -1, -2], 2), -3)


def test_5():
    check("max_window_sum([1, -2, 6, 4], 3)", max_window_sum([1, -2, 6, 4], 3), 8)


def test_6():
    check("max_window_sum([1, 2, 3], 4)", max_window_sum([1, 2, 3], 4), None)


def test_7():
    check("max_window_sum([5, 7, 4, 5, 8, 0, 8], 3)", max_window_sum([5, 7, 4, 5, 8, 0, 8], 3), 17)


def test_8():
    check("max_window_sum([1, 2, 3], 0)", max_window_sum([1, 2, 3], 0), None)


def test_9():
    check("max_window_sum([3, 9, 5, -3], 1)", max_window_sum([3, 9, 5, -3], 1), 9)


def test_10():
    check("max_window_sum([6, -3, -5, 0], 2)", max_window_sum([6, -3, -5, 0], 2), 3)


def test_11():
    check("max_window_sum([5, -1, 4], 2)", max_window_sum([5, -1, 4], 2), 4)


def test_12():
    check("max_window_sum([3, 6, 2, 3, 0, 9], 2)", max_window_sum([3, 6, 2, 3, 0, 9], 2), 9)


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
