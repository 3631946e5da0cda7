"""Visible tests for days_in_month.py."""
from days_in_month import days_in_month


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("days_in_month(1941, 2)", days_in_month(1941, 2), 28)


def test_2():
    check("days_in_month(2119, 9)", days_in_month(2119, 9), 30)


def test_3():
    check("days_in_month(1963, 5)", days_in_month(1963, 5), 31)


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
