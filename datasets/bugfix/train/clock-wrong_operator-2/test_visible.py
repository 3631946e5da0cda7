"""Visible tests for clock.py."""
from clock import clock


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("clock(137257)", clock(137257), '14:07:37')


def test_2():
    check("clock(59)", clock(59), '00:00:59')


def test_3():
    check("clock(3599)", clock(3599), '00:59:59')


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
