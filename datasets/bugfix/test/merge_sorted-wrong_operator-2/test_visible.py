"""Visible tests for merge_sorted.py."""
from merge_sorted import merge_sorted


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("merge_sorted([], [1, 5, 8, 10])", merge_sorted([], [1, 5, 8, 10]), [1, 5, 8, 10])


def test_2():
    check("merge_sorted([1, 3], [2, 4])", merge_sorted([1, 3], [2, 4]), [1, 2, 3, 4])


def test_3():
    check("merge_sorted([], [2])", merge_sorted([], [2]), [2])


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
