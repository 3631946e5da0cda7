"""Visible tests for pascal_row.py."""
from pascal_row import pascal_row


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("pascal_row(0)", pascal_row(0), [1])


def test_2():
    check("pascal_row(-1)", pascal_row(-1), [])


def test_3():
    check("pascal_row(8)", pascal_row(8), [1, 8, 28, 56, 70, 56, 28, 8, 1])


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
