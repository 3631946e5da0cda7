"""Hidden tests for transpose.py: never shown to the agent."""
from transpose import transpose


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("transpose([[1]])", transpose([[1]]), [[1]])


def test_2():
    check("transpose([[1], [2]])", transpose([[1], [2]]), [[1, 2]])


def test_3():
    check("transpose([[9], [4], [9]])", transpose([[9], [4], [9]]), [[9, 4, 9]])


def test_4():
    check("transpose([[4, 8]])", transpose([[4, 8]]), [[4], [8]])


def test_5():
    check("transpose([[1, 1, 6]])", transpose([[1, 1, 6]]), [[1], [1], [6]])


def test_6():
    check("transpose([[4, 3, 9]])", transpose([[4, 3, 9]]), [[4], [3], [9]])


def test_7():
    check("transpose([[1], [2], [3]])", transpose([[1], [2], [3]]), [[1, 2, 3]])


def test_8():
    check("transpose([[4, 7], [0, 1], [9, 9]])", transpose([[4, 7], [0, 1], [9, 9]]), [[4, 0, 9], [7, 1, 9]])


def test_9():
    check("transpose([[8, 2, 4], [1, 2, 7], [5, 3, 0]])", transpose([[8, 2, 4], [1, 2, 7], [5, 3, 0]]), [[8, 1, 5], [2, 2, 3], [4, 7, 0]])


def test_10():
    check("transpose([[7, 3], [3, 1], [3, 9]])", transpose([[7, 3], [3, 1], [3, 9]]), [[7, 3, 3], [3, 1, 9]])


def test_11():
    check("transpose([])", transpose([]), [])


def test_12():
    check("transpose([[5, 0, 0], [5, 6, 2]])", transpose([[5, 0, 0], [5, 6, 2]]), [[5, 5], [0, 6], [0, 2]])


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
