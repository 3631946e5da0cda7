"""Hidden tests for majority.py: never shown to the agent."""
from majority import majority


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("majority([1, 1, 2, 2, 2])", majority([1, 1, 2, 2, 2]), 2)


def test_2():
    check("majority([])", majority([]), None)


def test_3():
    check("majority([1, 3, 2, 1, 1, 2])", majority([1, 3, 2, 1, 1, 2]), None)


def test_4():
    check("majority([3, 2, 3, 1])", majority([3, 2, 3, 1]), None)


def test_5():
    check("majority([1, 1, 2, 3, 3, 3])", majority([1, 1, 2, 3, 3, 3]), None)


def test_6():
    check("majority([1, 2, 1, 2])", majority([1, 2, 1, 2]), None)


def test_7():
    check("majority([2, 1, 1])", majority([2, 1, 1]), 1)


def test_8():
    check("majority([3, 3])", majority([3, 3]), 3)


def test_9():
    check("majority([2, 2, 1])", majority([2, 2, 1]), 2)


def test_10():
    check("majority([3, 1, 2, 3, 3])", majority([3, 1, 2, 3, 3]), 3)


def test_11():
    check("majority([1, 3, 1])", majority([1, 3, 1]), 1)


def test_12():
    check("majority([1, 2, 1, 1, 2, 2, 1])", majority([1, 2, 1, 1, 2, 2, 1]), 1)


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
