"""Hidden tests for nearest_index.py: never shown to the agent."""
from nearest_index import nearest_index


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("nearest_index([-5, 7, 1], 7)", nearest_index([-5, 7, 1], 7), 1)


def test_2():
    check("nearest_index([-2, 1, 11], -5)", nearest_index([-2, 1, 11], -5), 0)


def test_3():
    check("nearest_index([], -1)", nearest_index([], -1), -1)


def test_4():
    check("nearest_index([], 3)", nearest_index([], 3), -1)


def test_5():
    check("nearest_index([], -4)", nearest_index([], -4), -1)


def test_6():
    check("nearest_index([], -3)", nearest_index([], -3), -1)


def test_7():
    check("nearest_index([15, -5, 9], 13)", nearest_index([15, -5, 9], 13), 0)


def test_8():
    check("nearest_index([10], 13)", nearest_index([10], 13), 0)


def test_9():
    check("nearest_index([3, 7], 5)", nearest_index([3, 7], 5), 0)


def test_10():
    check("nearest_index([12, -2, -4], 10)", nearest_index([12, -2, -4], 10), 0)


def test_11():
    check("nearest_index([11, 12], -3)", nearest_index([11, 12], -3), 0)


def test_12():
    check("nearest_index([7, 12, 15], 10)", nearest_index([7, 12, 15], 10), 1)


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
