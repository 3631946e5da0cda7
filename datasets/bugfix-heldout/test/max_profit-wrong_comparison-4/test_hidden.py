"""Hidden tests for max_profit.py: never shown to the agent."""
from max_profit import max_profit


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("max_profit([3], 1)", max_profit([3], 1), 0)


def test_2():
    check("max_profit([0, 4, 5, 6, 1, 10, 8], 3)", max_profit([0, 4, 5, 6, 1, 10, 8], 3), 7)


def test_3():
    check("max_profit([1, 5], 1)", max_profit([1, 5], 1), 3)


def test_4():
    check("max_profit([1, 5], 0)", max_profit([1, 5], 0), 4)


def test_5():
    check("max_profit([1, 0, 9], 0)", max_profit([1, 0, 9], 0), 9)


def test_6():
    check("max_profit([3, 3, 3], 0)", max_profit([3, 3, 3], 0), 0)


def test_7():
    check("max_profit([2, 1, 8, 4], 3)", max_profit([2, 1, 8, 4], 3), 4)


def test_8():
    check("max_profit([1, 6, 1, 0], 0)", max_profit([1, 6, 1, 0], 0), 5)


def test_9():
    check("max_profit([3, 9, 5], 0)", max_profit([3, 9, 5], 0), 6)


def test_10():
    check("max_profit([2, 3, 4, 6], 2)", max_profit([2, 3, 4, 6], 2), 2)


def test_11():
    check("max_profit([1, 8, 8, 3], 0)", max_profit([1, 8, 8, 3], 0), 7)


def test_12():
    check("max_profit([], 2)", max_profit([], 2), 0)


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
