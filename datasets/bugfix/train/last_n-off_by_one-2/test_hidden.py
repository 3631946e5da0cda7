"""Hidden tests for last_n.py: never shown to the agent."""
from last_n import last_n


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("last_n([9, 3, 2, 9, 2, 3], 4)", last_n([9, 3, 2, 9, 2, 3], 4), [2, 9, 2, 3])


def test_2():
    check("last_n([1], 0)", last_n([1], 0), [])


def test_3():
    check("last_n([1, 2, 3], -1)", last_n([1, 2, 3], -1), [])


def test_4():
    check("last_n([3, 9, 6], 1)", last_n([3, 9, 6], 1), [6])


def test_5():
    check("last_n([1, 8, 4, 6, 6], 1)", last_n([1, 8, 4, 6, 6], 1), [6])


def test_6():
    check("last_n([3, 2, 9, 7], 2)", last_n([3, 2, 9, 7], 2), [9, 7])


def test_7():
    check("last_n([0, 3, 6, 1], 6)", last_n([0, 3, 6, 1], 6), [0, 3, 6, 1])


def test_8():
    check("last_n([1, 2], 5)", last_n([1, 2], 5), [1, 2])


def test_9():
    check("last_n([6, 3, 4], 0)", last_n([6, 3, 4], 0), [])


def test_10():
    check("last_n([7, 4, 1], -1)", last_n([7, 4, 1], -1), [])


def test_11():
    check("last_n([], -2)", last_n([], -2), [])


def test_12():
    check("last_n([], -1)", last_n([], -1), [])


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
