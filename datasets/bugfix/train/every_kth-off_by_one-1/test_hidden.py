"""Hidden tests for every_kth.py: never shown to the agent."""
from every_kth import every_kth


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("every_kth([], 3)", every_kth([], 3), [])


def test_2():
    check("every_kth([7], 3)", every_kth([7], 3), [])


def test_3():
    check("every_kth([7, 7, 1, 2, 9, 7], 1)", every_kth([7, 7, 1, 2, 9, 7], 1), [7, 7, 1, 2, 9, 7])


def test_4():
    check("every_kth([3, 1], 1)", every_kth([3, 1], 1), [3, 1])


def test_5():
    check("every_kth([9, 2, 7, 3, 6, 4], 3)", every_kth([9, 2, 7, 3, 6, 4], 3), [7, 4])


def test_6():
    check("every_kth([1, 2, 3], 1)", every_kth([1, 2, 3], 1), [1, 2, 3])


def test_7():
    check("every_kth([6], 3)", every_kth([6], 3), [])


def test_8():
    check("every_kth([3, 1], 4)", every_kth([3, 1], 4), [])


def test_9():
    check("every_kth([], 0)", every_kth([], 0), [])


def test_10():
    check("every_kth([3, 8, 3, 1, 0], 4)", every_kth([3, 8, 3, 1, 0], 4), [1])


def test_11():
    check("every_kth([1, 1, 0], 0)", every_kth([1, 1, 0], 0), [])


def test_12():
    check("every_kth([], 4)", every_kth([], 4), [])


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
