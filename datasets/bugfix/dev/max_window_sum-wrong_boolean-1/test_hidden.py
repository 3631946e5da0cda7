"""Hidden tests for max_window_sum.py: never shown to the agent."""
from max_window_sum import max_window_sum


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("max_window_sum([6, 7], 4)", max_window_sum([6, 7], 4), None)


def test_2():
    check("max_window_sum([4], 0)", max_window_sum([4], 0), None)


def test_3():
    check("max_window_sum([8, -1, 6, 6, 5], 2)", max_window_sum([8, -1, 6, 6, 5], 2), 12)


def test_4():
    check("max_window_sum([5, -3, -3, 9, 3, -2], 1)", max_window_sum([5, -3, -3, 9, 3, -2], 1), 9)


def test_5():
    check("max_window_sum([3, 9, 5, -3], 1)", max_window_sum([3, 9, 5, -3], 1), 9)


def test_6():
    check("max_window_sum([5, 7, 4, 5, 8, 0, 8], 3)", max_window_sum([5, 7, 4, 5, 8, 0, 8], 3), 17)


def test_7():
    check("max_window_sum([8, -1, -4, 0], 0)", max_window_sum([8, -1, -4, 0], 0), None)


def test_8():
    check("max_window_sum([1, 2, 3], 4)", max_window_sum([1, 2, 3], 4), None)


def test_9():
    check("max_window_sum([-2, -5, 0, 9, 0, 5, 4], 0)", max_window_sum([-2, -5, 0, 9, 0, 5, 4], 0), None)


def test_10():
    check("max_window_sum([2, -4, 0], 4)", max_window_sum([2, -4, 0], 4), None)


def test_11():
    check("max_window_sum([1, 2, 3], 0)", max_window_sum([1, 2, 3], 0), None)


def test_12():
    check("max_window_sum([5, 5, 7, -2, 8, -2, 6], 0)", max_window_sum([5, 5, 7, -2, 8, -2, 6], 0), None)


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
