"""Hidden tests for first_missing.py: never shown to the agent."""
from first_missing import first_missing


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("first_missing([])", first_missing([]), 1)


def test_2():
    check("first_missing([1, -2])", first_missing([1, -2]), 2)


def test_3():
    check("first_missing([2, 6, -1, 4, -2])", first_missing([2, 6, -1, 4, -2]), 1)


def test_4():
    check("first_missing([3])", first_missing([3]), 1)


def test_5():
    check("first_missing([7, -2, 7])", first_missing([7, -2, 7]), 1)


def test_6():
    check("first_missing([5])", first_missing([5]), 1)


def test_7():
    check("first_missing([4, -2, 0, 1])", first_missing([4, -2, 0, 1]), 2)


def test_8():
    check("first_missing([2, 3, 2, 3])", first_missing([2, 3, 2, 3]), 1)


def test_9():
    check("first_missing([3, 4, -1, 1])", first_missing([3, 4, -1, 1]), 2)


def test_10():
    check("first_missing([6, 3, 5, 0, 6])", first_missing([6, 3, 5, 0, 6]), 1)


def test_11():
    check("first_missing([1])", first_missing([1]), 2)


def test_12():
    check("first_missing([-1, 1, 5, 7, 0, 3])", first_missing([-1, 1, 5, 7, 0, 3]), 2)


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
