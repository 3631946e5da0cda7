"""Visible tests for compress_ranges.py."""
from compress_ranges import compress_ranges


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("compress_ranges([2, 3, 6])", compress_ranges([2, 3, 6]), '2-3,6')


def test_2():
    check("compress_ranges([4, 5, 6, 8, 9])", compress_ranges([4, 5, 6, 8, 9]), '4-6,8-9')


def test_3():
    check("compress_ranges([1, 3])", compress_ranges([1, 3]), '1,3')


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
