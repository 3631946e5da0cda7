"""Hidden tests for interleave.py: never shown to the agent."""
from interleave import interleave


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("interleave([5, 0, 6, 1], [])", interleave([5, 0, 6, 1], []), [5, 0, 6, 1])


def test_2():
    check("interleave([2, 9, 2], [11, 17, 16])", interleave([2, 9, 2], [11, 17, 16]), [2, 11, 9, 17, 2, 16])


def test_3():
    check("interleave([5], [])", interleave([5], []), [5])


def test_4():
    check("interleave([6, 4, 3], [19])", interleave([6, 4, 3], [19]), [6, 19, 4, 3])


def test_5():
    check("interleave([], [11])", interleave([], [11]), [11])


def test_6():
    check("interleave([7, 4, 3, 1], [16])", interleave([7, 4, 3, 1], [16]), [7, 16, 4, 3, 1])


def test_7():
    check("interleave([1], [])", interleave([1], []), [1])


def test_8():
    check("interleave([4], [])", interleave([4], []), [4])


def test_9():
    check("interleave([1, 3, 3, 5], [])", interleave([1, 3, 3, 5], []), [1, 3, 3, 5])


def test_10():
    check("interleave([], [])", interleave([], []), [])


def test_11():
    check("interleave([8, 7, 3], [])", interleave([8, 7, 3], []), [8, 7, 3])


def test_12():
    check("interleave([7], [8, 9, 10])", interleave([7], [8, 9, 10]), [7, 8, 9, 10])


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
