"""Hidden tests for insert_sorted.py: never shown to the agent."""
from insert_sorted import insert_sorted


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("insert_sorted([2, 4, 5, 6], -3)", insert_sorted([2, 4, 5, 6], -3), [-3, 2, 4, 5, 6])


def test_2():
    check("insert_sorted([4, 5, 9, 12, 14], 0)", insert_sorted([4, 5, 9, 12, 14], 0), [0, 4, 5, 9, 12, 14])


def test_3():
    check("insert_sorted([2, 4, 5, 6, 9], 7)", insert_sorted([2, 4, 5, 6, 9], 7), [2, 4, 5, 6, 7, 9])


def test_4():
    check("insert_sorted([2, 2], 2)", insert_sorted([2, 2], 2), [2, 2, 2])


def test_5():
    check("insert_sorted([5], 0)", insert_sorted([5], 0), [0, 5])


def test_6():
    check("insert_sorted([2, 3, 6, 8], 2)", insert_sorted([2, 3, 6, 8], 2), [2, 2, 3, 6, 8])


def test_7():
    check("insert_sorted([2, 6, 9], 2)", insert_sorted([2, 6, 9], 2), [2, 2, 6, 9])


def test_8():
    check("insert_sorted([-1, 0], 6)", insert_sorted([-1, 0], 6), [-1, 0, 6])


def test_9():
    check("insert_sorted([0, 2, 3], 10)", insert_sorted([0, 2, 3], 10), [0, 2, 3, 10])


def test_10():
    check("insert_sorted([], 8)", insert_sorted([], 8), [8])


def test_11():
    check("insert_sorted([1, 5, 8, 11, 12], -2)", insert_sorted([1, 5, 8, 11, 12], -2), [-2, 1, 5, 8, 11, 12])


def test_12():
    check("insert_sorted([], 1)", insert_sorted([], 1), [1])


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
