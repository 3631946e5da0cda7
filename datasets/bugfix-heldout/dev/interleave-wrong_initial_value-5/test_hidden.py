"""Hidden tests for interleave.py: never shown to the agent."""
from interleave import interleave


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("interleave([], [11])", interleave([], [11]), [11])


def test_2():
    check("interleave([1, 3], [2, 4])", interleave([1, 3], [2, 4]), [1, 2, 3, 4])


def test_3():
    check("interleave([1, 3, 3, 5], [])", interleave([1, 3, 3, 5], []), [1, 3, 3, 5])


def test_4():
    check("interleave([], [14, 19, 18])", interleave([], [14, 19, 18]), [14, 19, 18])


def test_5():
    check("interleave([], [])", interleave([], []), [])


def test_6():
    check("interleave([4], [])", interleave([4], []), [4])


def test_7():
    check("interleave([3, 7], [11])", interleave([3, 7], [11]), [3, 11, 7])


def test_8():
    check("interleave([2], [15])", interleave([2], [15]), [2, 15])


def test_9():
    check("interleave([2], [17])", interleave([2], [17]), [2, 17])


def test_10():
    check("interleave([1, 2, 3], [9])", interleave([1, 2, 3], [9]), [1, 9, 2, 3])


def test_11():
    check("interleave([8, 7, 3], [])", interleave([8, 7, 3], []), [8, 7, 3])


def test_12():
    check("interleave([7], [19, 11, 16])", interleave([7], [19, 11, 16]), [7, 19, 11, 16])


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
