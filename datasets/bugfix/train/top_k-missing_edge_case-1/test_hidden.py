"""Hidden tests for top_k.py: never shown to the agent."""
from top_k import top_k


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("top_k([0, 2], 3)", top_k([0, 2], 3), [2, 0])


def test_2():
    check("top_k([5, 7, 9], 3)", top_k([5, 7, 9], 3), [9, 7, 5])


def test_3():
    check("top_k([3, 1, 2], -1)", top_k([3, 1, 2], -1), [])


def test_4():
    check("top_k([6, 6, 2, 8, 2], -1)", top_k([6, 6, 2, 8, 2], -1), [])


def test_5():
    check("top_k([7, 8, 2], -1)", top_k([7, 8, 2], -1), [])


def test_6():
    check("top_k([6, 2, 8], -1)", top_k([6, 2, 8], -1), [])


def test_7():
    check("top_k([], 1)", top_k([], 1), [])


def test_8():
    check("top_k([6, 5, 8, 4, 0], 0)", top_k([6, 5, 8, 4, 0], 0), [])


def test_9():
    check("top_k([0, 9, 7, 9], 0)", top_k([0, 9, 7, 9], 0), [])


def test_10():
    check("top_k([], 2)", top_k([], 2), [])


def test_11():
    check("top_k([5, 5, 8, 0, 1], 0)", top_k([5, 5, 8, 0, 1], 0), [])


def test_12():
    check("top_k([5, 5, 1], 1)", top_k([5, 5, 1], 1), [5])


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
