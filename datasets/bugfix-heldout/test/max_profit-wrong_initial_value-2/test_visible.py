"""Visible tests for max_profit.py."""
from max_profit import max_profit


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("max_profit([6, 6], 3)", max_profit([6, 6], 3), 0)


def test_2():
    check("max_profit([5], 1)", max_profit([5], 1), 0)


def test_3():
    check("max_profit([], 0)", max_profit([], 0), 0)


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
