"""Hidden tests for max_window_sum.py: never shown to the agent."""
from max_window_sum import max_window_sum


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("max_window_sum([6, 0], 2)", max_window_sum([6, 0], 2), 6)


def test_2():
    check("max_window_sum([2, -4, 0], 4)", max_window_sum([2, -4, 0], 4), None)


def test_3():
    check("max_window_sum([6, 7], 4)", max_window_sum([6, 7], 4), None)


def test_4():
    check("max_window_sum([-2], 1)", max_window_sum([-2], 1), -2)


def test_5():
    check("max_window_sum([-3, -1, -2], 2)", max_window_sum([-3, -1, -2], 2), -3)


def test_6():
    check("max_window_sum([1, 2, 3], 4)", max_window_sum([1, 2, 3], 4), None)


def test_7():
    check("max_window_sum([1, 2, 4, -5, -2], 0)", max_window_sum([1, 2, 4, -5, -2], 0), None)


def test_8():
    check("max_window_sum([-5, 0], 1)", max_window_sum([-5, 0], 1), 0)


def test_9():
    check("max_window_sum([5, 6], 4)", max_window_sum([5, 6], 4), None)


def test_10():
    check("max_window_sum([-2, 4], 1)", max_window_sum([-2, 4], 1), 4)


def test_11():
    check("max_window_sum([5, 5, 7, -2, 8, -2, 6], 0)", max_window_sum([5, 5, 7, -2, 8, -2, 6], 0), None)


def test_12():
    check("max_window_sum([1, 2, 3], 3)", max_window_sum([1, 2, 3], 3), 6)


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
