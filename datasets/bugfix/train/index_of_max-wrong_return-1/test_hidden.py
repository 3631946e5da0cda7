"""Hidden tests for index_of_max.py: never shown to the agent."""
from index_of_max import index_of_max


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("index_of_max([8])", index_of_max([8]), 0)


def test_2():
    check("index_of_max([])", index_of_max([]), -1)


def test_3():
    check("index_of_max([-3, -5, 9, -4, -4, -2, -3])", index_of_max([-3, -5, 9, -4, -4, -2, -3]), 2)


def test_4():
    check("index_of_max([4, 4, 1])", index_of_max([4, 4, 1]), 0)


def test_5():
    check("index_of_max([9, -4, 9, 9, 0, -5, 1])", index_of_max([9, -4, 9, 9, 0, -5, 1]), 0)


def test_6():
    check("index_of_max([7, 6, -3, -4, -1, 6])", index_of_max([7, 6, -3, -4, -1, 6]), 0)


def test_7():
    check("index_of_max([2, -1, 1, 0])", index_of_max([2, -1, 1, 0]), 0)


def test_8():
    check("index_of_max([5, -5])", index_of_max([5, -5]), 0)


def test_9():
    check("index_of_max([9, 2, 1])", index_of_max([9, 2, 1]), 0)


def test_10():
    check("index_of_max([-3, 6, -4, 8, -3])", index_of_max([-3, 6, -4, 8, -3]), 3)


def test_11():
    check("index_of_max([1, 3, 2])", index_of_max([1, 3, 2]), 1)


def test_12():
    check("index_of_max([6, -5, 6, 8])", index_of_max([6, -5, 6, 8]), 3)


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
