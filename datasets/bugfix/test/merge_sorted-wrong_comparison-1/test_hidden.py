"""Hidden tests for merge_sorted.py: never shown to the agent."""
from merge_sorted import merge_sorted


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("merge_sorted([], [])", merge_sorted([], []), [])


def test_2():
    check("merge_sorted([1, 3], [0, 4, 6])", merge_sorted([1, 3], [0, 4, 6]), [0, 1, 3, 4, 6])


def test_3():
    check("merge_sorted([4], [])", merge_sorted([4], []), [4])


def test_4():
    check("merge_sorted([1, 2], [1, 2])", merge_sorted([1, 2], [1, 2]), [1, 1, 2, 2])


def test_5():
    check("merge_sorted([0], [1, 2, 6])", merge_sorted([0], [1, 2, 6]), [0, 1, 2, 6])


def test_6():
    check("merge_sorted([-1, 2], [4])", merge_sorted([-1, 2], [4]), [-1, 2, 4])


def test_7():
    check("merge_sorted([6, 10], [4, 5, 8])", merge_sorted([6, 10], [4, 5, 8]), [4, 5, 6, 8, 10])


def test_8():
    check("merge_sorted([3, 4], [])", merge_sorted([3, 4], []), [3, 4])


def test_9():
    check("merge_sorted([2, 3, 4], [2])", merge_sorted([2, 3, 4], [2]), [2, 2, 3, 4])


def test_10():
    check("merge_sorted([3, 6, 9], [3])", merge_sorted([3, 6, 9], [3]), [3, 3, 6, 9])


def test_11():
    check("merge_sorted([5, 6], [1, 2])", merge_sorted([5, 6], [1, 2]), [1, 2, 5, 6])


def test_12():
    check("merge_sorted([1], [])", merge_sorted([1], []), [1])


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
