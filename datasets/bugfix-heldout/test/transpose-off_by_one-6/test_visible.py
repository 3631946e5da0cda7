"""Visible tests for transpose.py."""
from transpose import transpose


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("transpose([[4, 6, 1]])", transpose([[4, 6, 1]]), [[4], [6], [1]])


def test_2():
    check("transpose([[8, 2, 4], [1, 2, 7], [5, 3, 0]])", transpose([[8, 2, 4], [1, 2, 7], [5, 3, 0]]), [[8, 1, 5], [2, 2, 3], [4, 7, 0]])


def test_3():
    check("transpose([[9], [4], [9]])", transpose([[9], [4], [9]]), [[9, 4, 9]])


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
