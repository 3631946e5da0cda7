"""Visible tests for diagonal_sum.py."""
from diagonal_sum import diagonal_sum


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("diagonal_sum([[7, 2, 3, -3], [8, -2, 0, 2], [-3, 9, 3, 2], [2, 3, 7, 9]])", diagonal_sum([[7, 2, 3, -3], [8, -2, 0, 2], [-3, 9, 3, 2], [2, 3, 7, 9]]), 25)


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
