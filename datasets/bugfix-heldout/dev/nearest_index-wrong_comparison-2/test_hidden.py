"""Hidden tests for nearest_index.py: never shown to the agent."""
from nearest_index import nearest_index


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("nearest_index([7, 12, 15], 10)", nearest_index([7, 12, 15], 10), 1)


def test_2():
    check("nearest_index([3, 10, 10, 12], 6)", nearest_index([3, 10, 10, 12], 6), 0)


def test_3():
    check("nearest_index([3, 7], 5)", nearest_index([3, 7], 5), 0)


def test_4():
    check("nearest_index([3, 4, 5, 5], 12)", nearest_index([3, 4, 5, 5], 12), 2)


def test_5():
    check("nearest_index([15, 5, -2, 3, 5], 9)", nearest_index([15, 5, -2, 3, 5], 9), 1)


def test_6():
    check("nearest_index([-5, 9, 6, 10], 4)", nearest_index([-5, 9, 6, 10], 4), 2)


def test_7():
    check("nearest_index([], -1)", nearest_index([], -1), -1)


def test_8():
    check("nearest_index([8], 1)", nearest_index([8], 1), 0)


def test_9():
    check("nearest_index([-5, 7, 1], 7)", nearest_index([-5, 7, 1], 7), 1)


def test_10():
    check("nearest_index([5], 0)", nearest_index([5], 0), 0)


def test_11():
    check("nearest_index([10, 9, 10, 13, 10], 12)", nearest_index([10, 9, 10, 13, 10], 12), 3)


def test_12():
    check("nearest_index([15, -5, 9], 13)", nearest_index([15, -5, 9], 13), 0)


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
