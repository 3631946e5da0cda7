"""Visible tests for max_window_sum.py."""
from max_window_sum import max_window_sum


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("max_window_sum([-2], 1)", max_window_sum([-2], 1), -2)


def test_2():
    check("max_window_sum([-2, -5, 0, 9, 0, 5, 4], 0)", max_window_sum([-2, -5, 0, 9, 0, 5, 4], 0), None)


def test_3():
    check("max_window_sum([5, 6], 4)", max_window_sum([5, 6], 4), None)


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
