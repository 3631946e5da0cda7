"""Visible tests for fizzbuzz.py."""
from fizzbuzz import fizzbuzz


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("fizzbuzz(59)", fizzbuzz(59), '59')


def test_2():
    check("fizzbuzz(1)", fizzbuzz(1), '1')


def test_3():
    check("fizzbuzz(56)", fizzbuzz(56), '56')


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
