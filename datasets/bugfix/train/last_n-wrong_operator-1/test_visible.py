"""Visible tests for last_n.py."""
from last_n import last_n


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("last_n([9, 3, 2, 9, 2, 3], 4)", last_n([9, 3, 2, 9, 2, 3], 4), [2, 9, 2, 3])


def test_2():
    check("last_n([], -1)", last_n([], -1), [])


def test_3():
    check("last_n([7, 2, 4, 8, 6], -1)", last_n([7, 2, 4, 8, 6], -1), [])


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
