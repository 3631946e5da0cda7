"""Visible tests for transpose.py."""
from transpose import transpose


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("transpose([])", transpose([]), [])


def test_2():
    check("transpose([[5, 9, 5], [1, 1, 8], [7, 6, 0]])", transpose([[5, 9, 5], [1, 1, 8], [7, 6, 0]]), [[5, 1, 7], [9, 1, 6], [5, 8, 0]])


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
