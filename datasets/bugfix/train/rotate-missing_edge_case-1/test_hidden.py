"""Hidden tests for rotate.py: never shown to the agent."""
from rotate import rotate


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("rotate([2, 1, 3], 5)", rotate([2, 1, 3], 5), [1, 3, 2])


def test_2():
    check("rotate([], -2)", rotate([], -2), [])


def test_3():
    check("rotate([0], 8)", rotate([0], 8), [0])


def test_4():
    check("rotate([], 2)", rotate([], 2), [])


def test_5():
    check("rotate([], 4)", rotate([], 4), [])


def test_6():
    check("rotate([], 0)", rotate([], 0), [])


def test_7():
    check("rotate([0, 1, 9, 4, 2], 3)", rotate([0, 1, 9, 4, 2], 3), [9, 4, 2, 0, 1])


def test_8():
    check("rotate([2, 0, 5, 2, 1, 9], 4)", rotate([2, 0, 5, 2, 1, 9], 4), [5, 2, 1, 9, 2, 0])


def test_9():
    check("rotate([2, 7, 6, 1, 2, 2], 3)", rotate([2, 7, 6, 1, 2, 2], 3), [1, 2, 2, 2, 7, 6])


def test_10():
    check("rotate([5, 6, 8], -3)", rotate([5, 6, 8], -3), [5, 6, 8])


def test_11():
    check("rotate([5, 0, 3, 4, 7], 6)", rotate([5, 0, 3, 4, 7], 6), [7, 5, 0, 3, 4])


def test_12():
    check("rotate([1, 4, 7, 8], 8)", rotate([1, 4, 7, 8], 8), [1, 4, 7, 8])


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
