"""Hidden tests for binary_search.py: never shown to the agent."""
from binary_search import binary_search


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("binary_search([2, 3, 5, 9], 3)", binary_search([2, 3, 5, 9], 3), 1)


def test_2():
    check("binary_search([5, 6, 9, 11, 12], 6)", binary_search([5, 6, 9, 11, 12], 6), 1)


def test_3():
    check("binary_search([2, 4, 8, 10, 11, 12], 2)", binary_search([2, 4, 8, 10, 11, 12], 2), 0)


def test_4():
    check("binary_search([3, 6, 10, 14, 18], 6)", binary_search([3, 6, 10, 14, 18], 6), 1)


def test_5():
    check("binary_search([3, 7, 9, 12, 13, 17, 19], 9)", binary_search([3, 7, 9, 12, 13, 17, 19], 9), 2)


def test_6():
    check("binary_search([4, 7, 8, 11, 12, 15], 7)", binary_search([4, 7, 8, 11, 12, 15], 7), 1)


def test_7():
    check("binary_search([0, 2], 0)", binary_search([0, 2], 0), 0)


def test_8():
    check("binary_search([1, 3, 5], 4)", binary_search([1, 3, 5], 4), -1)


def test_9():
    check("binary_search([6, 7, 8, 12, 16], 6)", binary_search([6, 7, 8, 12, 16], 6), 0)


def test_10():
    check("binary_search([2], 2)", binary_search([2], 2), 0)


def test_11():
    check("binary_search([4, 5, 7, 9, 13], 7)", binary_search([4, 5, 7, 9, 13], 7), 2)


def test_12():
    check("binary_search([0], -1)", binary_search([0], -1), -1)


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
