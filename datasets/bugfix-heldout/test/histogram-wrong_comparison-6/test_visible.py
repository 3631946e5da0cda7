"""Visible tests for histogram.py."""
from histogram import histogram


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("histogram([0, 7], 3, 1)", histogram([0, 7], 3, 1), [2])


def test_2():
    check("histogram([12, 8, 3, 1, -2, 0], 0, 2)", histogram([12, 8, 3, 1, -2, 0], 0, 2), [])


def test_3():
    check("histogram([10, 3, 10, 3], 0, 2)", histogram([10, 3, 10, 3], 0, 2), [])


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
