"""Visible tests for fast_pow.py."""
from fast_pow import fast_pow


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("fast_pow(2, 0)", fast_pow(2, 0), 1)


def test_2():
    check("fast_pow(0, 3)", fast_pow(0, 3), 0)


def test_3():
    check("fast_pow(4, 5)", fast_pow(4, 5), 1024)


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
