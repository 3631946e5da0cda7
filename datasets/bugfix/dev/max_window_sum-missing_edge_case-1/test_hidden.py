"""Hidden tests for max_window_sum.py: never shown to the agent."""
from max_window_sum import max_window_sum


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("max_window_sum([5, -3, -3, 9, 3, -2], 1)", max_window_sum([5, -3, -3, 9, 3, -2], 1), 9)


def test_2():
    check("max_window_sum([-5, 0], 1)", max_window_sum([-5, 0], 1), 0)


def test_3():
    check("max_window_sum([1, 2, 3], 0)", max_window_sum([1, 2, 3], 0), None)


def test_4():
    check("max_window_sum([7, -4, 6, -4, 7], 0)", max_window_sum([7, -4, 6, -4, 7], 0), None)


def test_5():
    check("max_window_sum([1, 2, 4, -5, -2], 0)", max_window_sum([1, 2, 4, -5, -2], 0), None)


def test_6():
    check("max_window_sum([-2, -5, 0, 9, 0, 5, 4], 0)", max_window_sum([-2, -5, 0, 9, 0, 5, 4], 0), None)


def test_7():
    check("max_window_sum([1, 2, 3], 4)", max_window_sum([1, 2, 3], 4), None)


def test_8():
    check("max_window_sum([1, 2, 3], 3)", max_window_sum([1, 2, 3], 3), 6)


def test_9():
    check("max_window_sum([-5, -4, -5, -1, 3, -4], 3)", max_window_sum([-5, -4, -5, -1, 3, -4], 3), -2)


def test_10():
    check("max_window_sum([3, 6, 2, 3, 0, 9], 2)", max_window_sum([3, 6, 2, 3, 0, 9], 2), 9)


def test_11():
    check("max_window_sum([8, -1, 6, 6, 5], 2)", max_window_sum([8, -1, 6, 6, 5], 2), 12)


def test_12():
    check("max_window_sum([1, -4, 0, 4, 5], 3)", max_window_sum([1, -4, 0, 4, 5], 3), 9)


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
