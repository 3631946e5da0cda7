"""Hidden tests for transpose.py: never shown to the agent."""
from transpose import transpose


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("transpose([[4, 7], [0, 1], [9, 9]])", transpose([[4, 7], [0, 1], [9, 9]]), [[4, 0, 9], [7, 1, 9]])


def test_2():
    check("transpose([])", transpose([]), [])


def test_3():
    check("transpose([[9, 9]])", transpose([[9, 9]]), [[9], [9]])


def test_4():
    check("transpose([[1, 2]])", transpose([[1, 2]]), [[1], [2]])


def test_5():
    check("transpose([[8, 2, 4], [1, 2, 7], [5, 3, 0]])", transpose([[8, 2, 4], [1, 2, 7], [5, 3, 0]]), [[8, 1, 5], [2, 2, 3], [4, 7, 0]])


def test_6():
    check("transpose([[9], [4], [9]])", transpose([[9], [4], [9]]), [[9, 4, 9]])


def test_7():
    check("transpose([[1], [2]])", transpose([[1], [2]]), [[1, 2]])


def test_8():
    check("transpose([[1], [7], [4]])", transpose([[1], [7], [4]]), [[1, 7, 4]])


def test_9():
    check("transpose([[5, 9, 5], [1, 1, 8], [7, 6, 0]])", transpose([[5, 9, 5], [1, 1, 8], [7, 6, 0]]), [[5, 1, 7], [9, 1, 6], [5, 8, 0]])


def test_10():
    check("transpose([[4, 3, 9]])", transpose([[4, 3, 9]]), [[4], [3], [9]])


def test_11():
    check("transpose([[6], [4], [3]])", transpose([[6], [4], [3]]), [[6, 4, 3]])


def test_12():
    check("transpose([[4]])", transpose([[4]]), [[4]])


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
