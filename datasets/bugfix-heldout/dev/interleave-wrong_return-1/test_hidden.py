"""Hidden tests for interleave.py: never shown to the agent."""
from interleave import interleave


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("interleave([1, 6], [13, 11, 18, 18])", interleave([1, 6], [13, 11, 18, 18]), [1, 13, 6, 11, 18, 18])


def test_2():
    check("interleave([5, 7, 3, 6], [18, 11])", interleave([5, 7, 3, 6], [18, 11]), [5, 18, 7, 11, 3, 6])


def test_3():
    check("interleave([7], [19, 11, 16])", interleave([7], [19, 11, 16]), [7, 19, 11, 16])


def test_4():
    check("interleave([1], [])", interleave([1], []), [1])


def test_5():
    check("interleave([9, 5, 6, 8], [12])", interleave([9, 5, 6, 8], [12]), [9, 12, 5, 6, 8])


def test_6():
    check("interleave([5, 0, 6, 1], [])", interleave([5, 0, 6, 1], []), [5, 0, 6, 1])


def test_7():
    check("interleave([], [])", interleave([], []), [])


def test_8():
    check("interleave([9, 0], [18])", interleave([9, 0], [18]), [9, 18, 0])


def test_9():
    check("interleave([6, 4, 3], [19])", interleave([6, 4, 3], [19]), [6, 19, 4, 3])


def test_10():
    check("interleave([], [14, 19, 18])", interleave([], [14, 19, 18]), [14, 19, 18])


def test_11():
    check("interleave([2], [17])", interleave([2], [17]), [2, 17])


def test_12():
    check("interleave([1], [17, 16])", interleave([1], [17, 16]), [1, 17, 16])


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
