"""Visible tests for moving_sum.py."""
from moving_sum import moving_sum


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("moving_sum([5, -1, 4, 0], 2)", moving_sum([5, -1, 4, 0], 2), [4, 3, 4])


def test_2():
    check("moving_sum([4, 5], -1)", moving_sum([4, 5], -1), [])


def test_3():
    check("moving_sum([-2, 1], -1)", moving_sum([-2, 1], -1), [])


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
