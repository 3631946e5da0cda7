"""Hidden tests for diagonal_sum.py: never shown to the agent."""
from diagonal_sum import diagonal_sum


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("diagonal_sum([[2, -2], [4, 2]])", diagonal_sum([[2, -2], [4, 2]]), 6)


def test_2():
    check("diagonal_sum([[-1]])", diagonal_sum([[-1]]), -1)


def test_3():
    check("diagonal_sum([[3, 3, 2, 3], [0, 5, 0, 0], [0, 5, -3, 9], [9, 6, 9, -2]])", diagonal_sum([[3, 3, 2, 3], [0, 5, 0, 0], [0, 5, -3, 9], [9, 6, 9, -2]]), 20)


def test_4():
    check("diagonal_sum([[1, 2], [4, 0]])", diagonal_sum([[1, 2], [4, 0]]), 7)


def test_5():
    check("diagonal_sum([[5, -2, 8], [5, -1, 6], [1, 1, 3]])", diagonal_sum([[5, -2, 8], [5, -1, 6], [1, 1, 3]]), 16)


def test_6():
    check("diagonal_sum([[1, 0, 0, 2], [0, 3, 4, 0], [0, 5, 6, 0], [7, 0, 0, 8]])", diagonal_sum([[1, 0, 0, 2], [0, 3, 4, 0], [0, 5, 6, 0], [7, 0, 0, 8]]), 36)


def test_7():
    check("diagonal_sum([[4, 2], [0, 7]])", diagonal_sum([[4, 2], [0, 7]]), 13)


def test_8():
    check("diagonal_sum([[0, 6, 9], [1, 2, 8], [4, -1, -2]])", diagonal_sum([[0, 6, 9], [1, 2, 8], [4, -1, -2]]), 13)


def test_9():
    check("diagonal_sum([[6, 3], [5, 3]])", diagonal_sum([[6, 3], [5, 3]]), 17)


def test_10():
    check("diagonal_sum([[9]])", diagonal_sum([[9]]), 9)


def test_11():
    check("diagonal_sum([[0, 7, 6], [7, -1, 0], [6, -1, -1]])", diagonal_sum([[0, 7, 6], [7, -1, 0], [6, -1, -1]]), 10)


def test_12():
    check("diagonal_sum([[4, 0, -3], [3, -1, -3], [7, 0, -3]])", diagonal_sum([[4, 0, -3], [3, -1, -3], [7, 0, -3]]), 4)


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
