"""Hidden tests for diagonal_sum.py: never shown to the agent."""
from diagonal_sum import diagonal_sum


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("diagonal_sum([[7, -1, 7, 4], [5, 9, 6, 8], [1, 6, 1, 3], [1, 4, -2, 7]])", diagonal_sum([[7, -1, 7, 4], [5, 9, 6, 8], [1, 6, 1, 3], [1, 4, -2, 7]]), 41)


def test_2():
    check("diagonal_sum([])", diagonal_sum([]), 0)


def test_3():
    check("diagonal_sum([[9]])", diagonal_sum([[9]]), 9)


def test_4():
    check("diagonal_sum([[-1]])", diagonal_sum([[-1]]), -1)


def test_5():
    check("diagonal_sum([[1, 2, 3], [4, 5, 6], [7, 8, 9]])", diagonal_sum([[1, 2, 3], [4, 5, 6], [7, 8, 9]]), 25)


def test_6():
    check("diagonal_sum([[7, 1], [7, -3]])", diagonal_sum([[7, 1], [7, -3]]), 12)


def test_7():
    check("diagonal_sum([[-3, 0], [5, 4]])", diagonal_sum([[-3, 0], [5, 4]]), 6)


def test_8():
    check("diagonal_sum([[8, 7, 7], [-1, 3, 9], [5, 1, -3]])", diagonal_sum([[8, 7, 7], [-1, 3, 9], [5, 1, -3]]), 20)


def test_9():
    check("diagonal_sum([[6, 1, 4, 2], [9, 3, 6, 2], [6, -1, 2, 2], [3, 0, 1, 3]])", diagonal_sum([[6, 1, 4, 2], [9, 3, 6, 2], [6, -1, 2, 2], [3, 0, 1, 3]]), 24)


def test_10():
    check("diagonal_sum([[5, -2, 8], [5, -1, 6], [1, 1, 3]])", diagonal_sum([[5, -2, 8], [5, -1, 6], [1, 1, 3]]), 16)


def test_11():
    check("diagonal_sum([[0, 7, 6], [7, -1, 0], [6, -1, -1]])", diagonal_sum([[0, 7, 6], [7, -1, 0], [6, -1, -1]]), 10)


def test_12():
    check("diagonal_sum([[6, 3], [5, 3]])", diagonal_sum([[6, 3], [5, 3]]), 17)


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
