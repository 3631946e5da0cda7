"""Hidden tests for transpose.py: never shown to the agent."""
from transpose import transpose


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("transpose([[3], [8]])", transpose([[3], [8]]), [[3, 8]])


def test_2():
    check("transpose([])", transpose([]), [])


def test_3():
    check("transpose([[1, 2, 3], [4, 5, 6]])", transpose([[1, 2, 3], [4, 5, 6]]), [[1, 4], [2, 5], [3, 6]])


def test_4():
    check("transpose([[8], [1], [3]])", transpose([[8], [1], [3]]), [[8, 1, 3]])


def test_5():
    check("transpose([[7, 3], [3, 1], [3, 9]])", transpose([[7, 3], [3, 1], [3, 9]]), [[7, 3, 3], [3, 1, 9]])


def test_6():
    check("transpose([[3, 2, 9]])", transpose([[3, 2, 9]]), [[3], [2], [9]])


def test_7():
    check("transpose([[2, 9, 3], [8, 3, 5]])", transpose([[2, 9, 3], [8, 3, 5]]), [[2, 8], [9, 3], [3, 5]])


def test_8():
    check("transpose([[5, 0, 0], [5, 6, 2]])", transpose([[5, 0, 0], [5, 6, 2]]), [[5, 5], [0, 6], [0, 2]])


def test_9():
    check("transpose([[9, 9], [7, 2]])", transpose([[9, 9], [7, 2]]), [[9, 7], [9, 2]])


def test_10():
    check("transpose([[9, 9]])", transpose([[9, 9]]), [[9], [9]])


def test_11():
    check("transpose([[6], [4], [3]])", transpose([[6], [4], [3]]), [[6, 4, 3]])


def test_12():
    check("transpose([[9, 4, 5], [8, 3, 6], [2, 7, 4]])", transpose([[9, 4, 5], [8, 3, 6], [2, 7, 4]]), [[9, 8, 2], [4, 3, 7], [5, 6, 4]])


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
