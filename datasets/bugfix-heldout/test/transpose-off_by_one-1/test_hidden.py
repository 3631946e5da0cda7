"""Hidden tests for transpose.py: never shown to the agent."""
from transpose import transpose


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("transpose([])", transpose([]), [])


def test_2():
    check("transpose([[8, 7, 6]])", transpose([[8, 7, 6]]), [[8], [7], [6]])


def test_3():
    check("transpose([[2, 9, 3], [8, 3, 5]])", transpose([[2, 9, 3], [8, 3, 5]]), [[2, 8], [9, 3], [3, 5]])


def test_4():
    check("transpose([[7, 3], [3, 1], [3, 9]])", transpose([[7, 3], [3, 1], [3, 9]]), [[7, 3, 3], [3, 1, 9]])


def test_5():
    check("transpose([[4, 3, 9]])", transpose([[4, 3, 9]]), [[4], [3], [9]])


def test_6():
    check("transpose([[3, 2, 9]])", transpose([[3, 2, 9]]), [[3], [2], [9]])


def test_7():
    check("transpose([[4, 6, 1]])", transpose([[4, 6, 1]]), [[4], [6], [1]])


def test_8():
    check("transpose([[4], [7]])", transpose([[4], [7]]), [[4, 7]])


def test_9():
    check("transpose([[3, 6]])", transpose([[3, 6]]), [[3], [6]])


def test_10():
    check("transpose([[5, 9, 5], [1, 1, 8], [7, 6, 0]])", transpose([[5, 9, 5], [1, 1, 8], [7, 6, 0]]), [[5, 1, 7], [9, 1, 6], [5, 8, 0]])


def test_11():
    check("transpose([[1, 2, 3], [4, 5, 6]])", transpose([[1, 2, 3], [4, 5, 6]]), [[1, 4], [2, 5], [3, 6]])


def test_12():
    check("transpose([[9, 9], [7, 2]])", transpose([[9, 9], [7, 2]]), [[9, 7], [9, 2]])


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
