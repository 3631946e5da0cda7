"""Visible tests for merge_intervals.py."""
from merge_intervals import merge_intervals


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("merge_intervals([[11, 13], [2, 5]])", merge_intervals([[11, 13], [2, 5]]), [[2, 5], [11, 13]])


def test_2():
    check("merge_intervals([[7, 7], [8, 11], [4, 7], [5, 8]])", merge_intervals([[7, 7], [8, 11], [4, 7], [5, 8]]), [[4, 11]])


def test_3():
    check("merge_intervals([[9, 11], [5, 6]])", merge_intervals([[9, 11], [5, 6]]), [[5, 6], [9, 11]])


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
