"""Hidden tests for max_window_sum.py: never shown to the agent."""
from max_window_sum import max_window_sum


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("max_window_sum([-2], 1)", max_window_sum([-2], 1), -2)


def test_2():
    check("max_window_sum([-2, -5, 0, 9, 0, 5, 4], 0)", max_window_sum([-2, -5, 0, 9, 0, 5, 4], 0), None)


def test_3():
    check("max_window_sum([5, 6], 4)", max_window_sum([5, 6], 4), None)


def test_4():
    check("max_window_sum([5, -1, 4], 2)", max_window_sum([5, -1, 4], 2), 4)


def test_5():
    check("max_window_sum([2, -3, 8, -5, 3, 2, 7], 1)", max_window_sum([2, -3, 8, -5, 3, 2, 7], 1), 8)


def test_6():
    check("max_window_sum([9, 0, 9, 7, 1, 3, 3], 2)", max_window_sum([9, 0, 9, 7, 1, 3, 3], 2), 16)


def test_7():
    check("max_window_sum([4], 0)", max_window_sum([4], 0), None)


def test_8():
    check("max_window_sum([1, 2, 4, -5, -2], 0)", max_window_sum([1, 2, 4, -5, -2], 0), None)


def test_9():
    check("max_window_sum([1, 2, 3], 0)", max_window_sum([1, 2, 3], 0), None)


def test_10():
    check("max_window_sum([7, -4, 6, -4, 7], 0)", max_window_sum([7, -4, 6, -4, 7], 0), None)


def test_11():
    check("max_window_sum([8, -1, -4, 0], 0)", max_window_sum([8, -1, -4, 0], 0), None)


def test_12():
    check("max_window_sum([1, 2, 3], 4)", max_window_sum([1, 2, 3], 4), None)


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
