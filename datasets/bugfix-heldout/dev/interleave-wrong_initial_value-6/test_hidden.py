"""Hidden tests for interleave.py: never shown to the agent."""
from interleave import interleave


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("interleave([4], [])", interleave([4], []), [4])


def test_2():
    check("interleave([2], [15])", interleave([2], [15]), [2, 15])


def test_3():
    check("interleave([2, 0], [12, 18, 12, 17])", interleave([2, 0], [12, 18, 12, 17]), [2, 12, 0, 18, 12, 17])


def test_4():
    check("interleave([5], [])", interleave([5], []), [5])


def test_5():
    check("interleave([1], [17, 16])", interleave([1], [17, 16]), [1, 17, 16])


def test_6():
    check("interleave([], [18, 12, 17])", interleave([], [18, 12, 17]), [18, 12, 17])


def test_7():
    check("interleave([2, 9, 2], [11, 17, 16])", interleave([2, 9, 2], [11, 17, 16]), [2, 11, 9, 17, 2, 16])


def test_8():
    check("interleave([0, 9, 8, 5], [19])", interleave([0, 9, 8, 5], [19]), [0, 19, 9, 8, 5])


def test_9():
    check("interleave([7, 4, 3, 1], [16])", interleave([7, 4, 3, 1], [16]), [7, 16, 4, 3, 1])


def test_10():
    check("interleave([7], [8, 9, 10])", interleave([7], [8, 9, 10]), [7, 8, 9, 10])


def test_11():
    check("interleave([7], [18, 11, 11, 14])", interleave([7], [18, 11, 11, 14]), [7, 18, 11, 11, 14])


def test_12():
    check("interleave([8, 7, 3], [])", interleave([8, 7, 3], []), [8, 7, 3])


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
