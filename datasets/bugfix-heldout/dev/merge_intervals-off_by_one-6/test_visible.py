"""Visible tests for merge_intervals.py."""
from merge_intervals import merge_intervals


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("merge_intervals([[0, 3], [10, 10], [8, 10]])", merge_intervals([[0, 3], [10, 10], [8, 10]]), [[0, 3], [8, 10]])


def test_2():
    check("merge_intervals([[10, 10], [10, 10], [6, 6], [3, 3]])", merge_intervals([[10, 10], [10, 10], [6, 6], [3, 3]]), [[3, 3], [6, 6], [10, 10]])


def test_3():
    check("merge_intervals([[4, 7], [1, 1], [0, 0]])", merge_intervals([[4, 7], [1, 1], [0, 0]]), [[0, 0], [1, 1], [4, 7]])


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
