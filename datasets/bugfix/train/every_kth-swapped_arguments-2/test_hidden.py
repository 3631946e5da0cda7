"""Hidden tests for every_kth.py: never shown to the agent."""
from every_kth import every_kth


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("every_kth([5, 6, 7, 8], 0)", every_kth([5, 6, 7, 8], 0), [])


def test_2():
    check("every_kth([7], 2)", every_kth([7], 2), [])


def test_3():
    check("every_kth([9, 2, 7, 3, 6, 4], 3)", every_kth([9, 2, 7, 3, 6, 4], 3), [7, 4])


def test_4():
    check("every_kth([1, 2, 3], 3)", every_kth([1, 2, 3], 3), [3])


def test_5():
    check("every_kth([5, 6, 6], 2)", every_kth([5, 6, 6], 2), [6])


def test_6():
    check("every_kth([5, 9, 7, 9, 2, 9, 5, 0], 2)", every_kth([5, 9, 7, 9, 2, 9, 5, 0], 2), [9, 9, 9, 0])


def test_7():
    check("every_kth([6], 2)", every_kth([6], 2), [])


def test_8():
    check("every_kth([5], 2)", every_kth([5], 2), [])


def test_9():
    check("every_kth([], 1)", every_kth([], 1), [])


def test_10():
    check("every_kth([6], 0)", every_kth([6], 0), [])


def test_11():
    check("every_kth([1, 2, 3], 0)", every_kth([1, 2, 3], 0), [])


def test_12():
    check("every_kth([1, 1, 0], 0)", every_kth([1, 1, 0], 0), [])


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
