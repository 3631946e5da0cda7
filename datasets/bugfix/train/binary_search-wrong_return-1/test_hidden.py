"""Hidden tests for binary_search.py: never shown to the agent."""
from binary_search import binary_search


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("binary_search([-1, 2, 3], 0)", binary_search([-1, 2, 3], 0), -1)


def test_2():
    check("binary_search([1, 3, 5, 7], 7)", binary_search([1, 3, 5, 7], 7), 3)


def test_3():
    check("binary_search([2, 6, 7, 9], 6)", binary_search([2, 6, 7, 9], 6), 1)


def test_4():
    check("binary_search([4, 8, 10, 12], 8)", binary_search([4, 8, 10, 12], 8), 1)


def test_5():
    check("binary_search([4, 5, 7, 9, 13], 7)", binary_search([4, 5, 7, 9, 13], 7), 2)


def test_6():
    check("binary_search([3, 6, 7, 11, 13, 17], 13)", binary_search([3, 6, 7, 11, 13, 17], 13), 4)


def test_7():
    check("binary_search([0], -1)", binary_search([0], -1), -1)


def test_8():
    check("binary_search([2, 6, 8, 10], 2)", binary_search([2, 6, 8, 10], 2), 0)


def test_9():
    check("binary_search([3], 3)", binary_search([3], 3), 0)


def test_10():
    check("binary_search([2, 5, 8, 12, 15, 17, 21, 23], 23)", binary_search([2, 5, 8, 12, 15, 17, 21, 23], 23), 7)


def test_11():
    check("binary_search([3, 7, 9, 12, 13, 17, 19], 9)", binary_search([3, 7, 9, 12, 13, 17, 19], 9), 2)


def test_12():
    check("binary_search([2, 4, 8, 10, 11, 12], 2)", binary_search([2, 4, 8, 10, 11, 12], 2), 0)


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
