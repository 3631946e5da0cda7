"""Visible tests for sum_multiples.py."""
from sum_multiples import sum_multiples


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("sum_multiples(17, 2, 2)", sum_multiples(17, 2, 2), 72)


def test_2():
    check("sum_multiples(20, 0, 5)", sum_multiples(20, 0, 5), 0)


def test_3():
    check("sum_multiples(38, 0, 2)", sum_multiples(38, 0, 2), 0)


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
