"""Visible tests for sum_multiples.py."""
from sum_multiples import sum_multiples


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("sum_multiples(39, 2, 5)", sum_multiples(39, 2, 5), 460)


def test_2():
    check("sum_multiples(38, 6, 2)", sum_multiples(38, 6, 2), 342)


def test_3():
    check("sum_multiples(35, 1, 1)", sum_multiples(35, 1, 1), 595)


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
