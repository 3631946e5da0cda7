"""Hidden tests for merge_intervals.py: never shown to the agent."""
from merge_intervals import merge_intervals


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("merge_intervals([[1, 2]])", merge_intervals([[1, 2]]), [[1, 2]])


def test_2():
    check("merge_intervals([[1, 3], [2, 5]])", merge_intervals([[1, 3], [2, 5]]), [[1, 5]])


def test_3():
    check("merge_intervals([[3, 3], [6, 9]])", merge_intervals([[3, 3], [6, 9]]), [[3, 3], [6, 9]])


def test_4():
    check("merge_intervals([[10, 10], [9, 10]])", merge_intervals([[10, 10], [9, 10]]), [[9, 10]])


def test_5():
    check("merge_intervals([[11, 11], [7, 8], [3, 4], [6, 8]])", merge_intervals([[11, 11], [7, 8], [3, 4], [6, 8]]), [[3, 4], [6, 8], [11, 11]])


def test_6():
    check("merge_intervals([[6, 6], [2, 5], [2, 5]])", merge_intervals([[6, 6], [2, 5], [2, 5]]), [[2, 5], [6, 6]])


def test_7():
    check("merge_intervals([[8, 8], [1, 4], [7, 7]])", merge_intervals([[8, 8], [1, 4], [7, 7]]), [[1, 4], [7, 7], [8, 8]])


def test_8():
    check("merge_intervals([[1, 2], [3, 4]])", merge_intervals([[1, 2], [3, 4]]), [[1, 2], [3, 4]])


def test_9():
    check("merge_intervals([[9, 11], [5, 6]])", merge_intervals([[9, 11], [5, 6]]), [[5, 6], [9, 11]])


def test_10():
    check("merge_intervals([[11, 13], [2, 5]])", merge_intervals([[11, 13], [2, 5]]), [[2, 5], [11, 13]])


def test_11():
    check("merge_intervals([[3, 3]])", merge_intervals([[3, 3]]), [[3, 3]])


def test_12():
    check("merge_intervals([[1, 2], [9, 12]])", merge_intervals([[1, 2], [9, 12]]), [[1, 2], [9, 12]])


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
