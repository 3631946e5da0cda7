"""Visible tests for transpose.py."""
from transpose import transpose


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("transpose([[4, 7], [0, 1], [9, 9]])", transpose([[4, 7], [0, 1], [9, 9]]), [[4, 0, 9], [7, 1, 9]])


def test_2():
    check("transpose([])", transpose([]), [])


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
