"""Visible tests for max_profit.py."""
from max_profit import max_profit


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("max_profit([9, 7, 0, 9, 12], 2)", max_profit([9, 7, 0, 9, 12], 2), 10)


def test_2():
    check("max_profit([8, 9], 2)", max_profit([8, 9], 2), 0)


def test_3():
    check("max_profit([2, 1, 0, 4, 0, 2], 0)", max_profit([2, 1, 0, 4, 0, 2], 0), 4)


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
