"""Hidden tests for nearest_index.py: never shown to the agent."""
from nearest_index import nearest_index


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("nearest_index([5], 0)", nearest_index([5], 0), 0)


def test_2():
    check("nearest_index([], -1)", nearest_index([], -1), -1)


def test_3():
    check("nearest_index([1, 4, 9], 7)", nearest_index([1, 4, 9], 7), 2)


def test_4():
    check("nearest_index([], 3)", nearest_index([], 3), -1)


def test_5():
    check("nearest_index([], -3)", nearest_index([], -3), -1)


def test_6():
    check("nearest_index([], 9)", nearest_index([], 9), -1)


def test_7():
    check("nearest_index([7, -2, -5], 4)", nearest_index([7, -2, -5], 4), 0)


def test_8():
    check("nearest_index([-2, 1, 11], -5)", nearest_index([-2, 1, 11], -5), 0)


def test_9():
    check("nearest_index([10, 9, 10, 13, 10], 12)", nearest_index([10, 9, 10, 13, 10], 12), 3)


def test_10():
    check("nearest_index([6, -3], 7)", nearest_index([6, -3], 7), 0)


def test_11():
    check("nearest_index([11, 12], -3)", nearest_index([11, 12], -3), 0)


def test_12():
    check("nearest_index([10], 13)", nearest_index([10], 13), 0)


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
