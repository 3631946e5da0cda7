"""Visible tests for count_in_range.py."""
from count_in_range import count_in_range


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("count_in_range([6, 1], 0, 3)", count_in_range([6, 1], 0, 3), 1)


def test_2():
    check("count_in_range([2, 1, 10, 2], 5, 10)", count_in_range([2, 1, 10, 2], 5, 10), 0)


def test_3():
    check("count_in_range([7, 10, 9, 8, 4, 8, 7], 1, 1)", count_in_range([7, 10, 9, 8, 4, 8, 7], 1, 1), 0)


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
