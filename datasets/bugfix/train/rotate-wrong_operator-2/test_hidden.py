"""Hidden tests for rotate.py: never shown to the agent."""
from rotate import rotate


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("rotate([4, 3, 2, 6, 2], 6)", rotate([4, 3, 2, 6, 2], 6), [2, 4, 3, 2, 6])


def test_2():
    check("rotate([], -3)", rotate([], -3), [])


def test_3():
    check("rotate([2, 9], 2)", rotate([2, 9], 2), [2, 9])


def test_4():
    check("rotate([5, 0, 3, 4, 7], 6)", rotate([5, 0, 3, 4, 7], 6), [7, 5, 0, 3, 4])


def test_5():
    check("rotate([1, 3, 7, 3], 3)", rotate([1, 3, 7, 3], 3), [3, 7, 3, 1])


def test_6():
    check("rotate([1, 0], 5)", rotate([1, 0], 5), [0, 1])


def test_7():
    check("rotate([], -2)", rotate([], -2), [])


def test_8():
    check("rotate([0], 8)", rotate([0], 8), [0])


def test_9():
    check("rotate([], 2)", rotate([], 2), [])


def test_10():
    check("rotate([1, 2, 3], 0)", rotate([1, 2, 3], 0), [1, 2, 3])


def test_11():
    check("rotate([], 4)", rotate([], 4), [])


def test_12():
    check("rotate([9], 8)", rotate([9], 8), [9])


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
