"""Visible tests for fast_pow.py."""
from fast_pow import fast_pow


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("fast_pow(0, 6)", fast_pow(0, 6), 0)


def test_2():
    check("fast_pow(3, 0)", fast_pow(3, 0), 1)


def test_3():
    check("fast_pow(0, 8)", fast_pow(0, 8), 0)


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
