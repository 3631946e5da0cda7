"""Hidden tests for max_profit.py: never shown to the agent."""
from max_profit import max_profit


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("max_profit([0, 10, 4, 7, 11, 4, 5], 3)", max_profit([0, 10, 4, 7, 11, 4, 5], 3), 8)


def test_2():
    check("max_profit([3, 3, 3], 0)", max_profit([3, 3, 3], 0), 0)


def test_3():
    check("max_profit([6, 6], 3)", max_profit([6, 6], 3), 0)


def test_4():
    check("max_profit([6, 8, 6, 7], 1)", max_profit([6, 8, 6, 7], 1), 1)


def test_5():
    check("max_profit([3, 2, 11, 0, 11, 12], 3)", max_profit([3, 2, 11, 0, 11, 12], 3), 9)


def test_6():
    check("max_profit([12, 9, 2, 10], 2)", max_profit([12, 9, 2, 10], 2), 6)


def test_7():
    check("max_profit([1, 8, 8, 3], 0)", max_profit([1, 8, 8, 3], 0), 7)


def test_8():
    check("max_profit([5], 1)", max_profit([5], 1), 0)


def test_9():
    check("max_profit([11, 3], 3)", max_profit([11, 3], 3), 0)


def test_10():
    check("max_profit([], 0)", max_profit([], 0), 0)


def test_11():
    check("max_profit([3, 1], 0)", max_profit([3, 1], 0), 0)


def test_12():
    check("max_profit([1, 5], 0)", max_profit([1, 5], 0), 4)


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
