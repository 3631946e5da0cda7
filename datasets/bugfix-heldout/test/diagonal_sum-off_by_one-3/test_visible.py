"""Visible tests for diagonal_sum.py."""
from diagonal_sum import diagonal_sum


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("diagonal_sum([[2]])", diagonal_sum([[2]]), 2)


def test_2():
    check("diagonal_sum([[-1]])", diagonal_sum([[-1]]), -1)


def test_3():
    check("diagonal_sum([[1, 0, 0, 2], [0, 3, 4, 0], [0, 5, 6, 0], [7, 0, 0, 8]])", diagonal_sum([[1, 0, 0, 2], [0, 3, 4, 0], [0, 5, 6, 0], [7, 0, 0, 8]]), 36)


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
