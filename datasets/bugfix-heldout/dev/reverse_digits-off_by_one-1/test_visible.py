"""Visible tests for reverse_digits.py."""
from reverse_digits import reverse_digits


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("reverse_digits(0)", reverse_digits(0), 0)


def test_2():
    check("reverse_digits(5)", reverse_digits(5), 5)


def test_3():
    check("reverse_digits(-907)", reverse_digits(-907), -709)


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
