"""Visible tests for binary_search.py."""
from binary_search import binary_search


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("binary_search([3], 3)", binary_search([3], 3), 0)


def test_2():
    check("binary_search([2, 6, 8, 10], 2)", binary_search([2, 6, 8, 10], 2), 0)


def test_3():
    check("binary_search([5, 6, 9, 11, 12], 6)", binary_search([5, 6, 9, 11, 12], 6), 1)


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
