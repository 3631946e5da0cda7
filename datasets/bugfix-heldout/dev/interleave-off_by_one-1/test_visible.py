"""Visible tests for interleave.py."""
from interleave import interleave


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("interleave([5, 7, 3, 6], [18, 11])", interleave([5, 7, 3, 6], [18, 11]), [5, 18, 7, 11, 3, 6])


def test_2():
    check("interleave([], [11])", interleave([], [11]), [11])


def test_3():
    check("interleave([7], [19, 11, 16])", interleave([7], [19, 11, 16]), [7, 19, 11, 16])


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
