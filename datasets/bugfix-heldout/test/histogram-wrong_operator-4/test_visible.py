"""Visible tests for histogram.py."""
from histogram import histogram


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("histogram([9, 14, 4, -1, -2, -1], -1, 1)", histogram([9, 14, 4, -1, -2, -1], -1, 1), [])


def test_2():
    check("histogram([4], -1, 2)", histogram([4], -1, 2), [])


def test_3():
    check("histogram([7, 1, 7, 9, 3], 3, 4)", histogram([7, 1, 7, 9, 3], 3, 4), [1, 1, 2, 1])


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
