"""Hidden tests for interleave.py: never shown to the agent."""
from interleave import interleave


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("interleave([0, 9, 8, 5], [19])", interleave([0, 9, 8, 5], [19]), [0, 19, 9, 8, 5])


def test_2():
    check("interleave([3, 7], [11])", interleave([3, 7], [11]), [3, 11, 7])


def test_3():
    check("interleave([9, 5, 6, 8], [12])", interleave([9, 5, 6, 8], [12]), [9, 12, 5, 6, 8])


def test_4():
    check("interleave([], [17])", interleave([], [17]), [17])


def test_5():
    check("interleave([1], [])", interleave([1], []), [1])


def test_6():
    check("interleave([2, 9, 2], [11, 17, 16])", interleave([2, 9, 2], [11, 17, 16]), [2, 11, 9, 17, 2, 16])


def test_7():
    check("interleave([5], [])", interleave([5], []), [5])


def test_8():
    check("interleave([], [18, 12, 17])", interleave([], [18, 12, 17]), [18, 12, 17])


def test_9():
    check("interleave([7], [8, 9, 10])", interleave([7], [8, 9, 10]), [7, 8, 9, 10])


def test_10():
    check("interleave([9, 0], [18])", interleave([9, 0], [18]), [9, 18, 0])


def test_11():
    check("interleave([], [14, 19, 18])", interleave([], [14, 19, 18]), [14, 19, 18])


def test_12():
    check("interleave([4, 6, 6], [17])", interleave([4, 6, 6], [17]), [4, 17, 6, 6])


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
