"""Hidden tests for moving_sum.py: never shown to the agent."""
from moving_sum import moving_sum


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("moving_sum([8, 2, 3, 0, -2, 7], -1)", moving_sum([8, 2, 3, 0, -2, 7], -1), [])


def test_2():
    check("moving_sum([0, 9, 2, -1, 6, 1], 4)", moving_sum([0, 9, 2, -1, 6, 1], 4), [10, 16, 8])


def test_3():
    check("moving_sum([-2, 1], -1)", moving_sum([-2, 1], -1), [])


def test_4():
    check("moving_sum([1, 2, 3], 3)", moving_sum([1, 2, 3], 3), [6])


def test_5():
    check("moving_sum([1, 2], 3)", moving_sum([1, 2], 3), [])


def test_6():
    check("moving_sum([0, 0, 2], 4)", moving_sum([0, 0, 2], 4), [])


def test_7():
    check("moving_sum([], -1)", moving_sum([], -1), [])


def test_8():
    check("moving_sum([4, 5], -1)", moving_sum([4, 5], -1), [])


def test_9():
    check("moving_sum([8, 1, 4], 0)", moving_sum([8, 1, 4], 0), [])


def test_10():
    check("moving_sum([-1, 4, -2, 1, 8], -1)", moving_sum([-1, 4, -2, 1, 8], -1), [])


def test_11():
    check("moving_sum([2, 5], -1)", moving_sum([2, 5], -1), [])


def test_12():
    check("moving_sum([], 2)", moving_sum([], 2), [])


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
