"""Hidden tests for chunks.py: never shown to the agent."""
from chunks import chunks


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("chunks([3, 0, 5, 8], -1)", chunks([3, 0, 5, 8], -1), [])


def test_2():
    check("chunks([5, 4, 0, 2, 9, 2], 0)", chunks([5, 4, 0, 2, 9, 2], 0), [])


def test_3():
    check("chunks([8, 5, 5, 7], 2)", chunks([8, 5, 5, 7], 2), [[8, 5], [5, 7]])


def test_4():
    check("chunks([1, 2], 5)", chunks([1, 2], 5), [[1, 2]])


def test_5():
    check("chunks([8], 3)", chunks([8], 3), [[8]])


def test_6():
    check("chunks([2, 9, 6], 1)", chunks([2, 9, 6], 1), [[2], [9], [6]])


def test_7():
    check("chunks([], 0)", chunks([], 0), [])


def test_8():
    check("chunks([7], -1)", chunks([7], -1), [])


def test_9():
    check("chunks([6, 5], -1)", chunks([6, 5], -1), [])


def test_10():
    check("chunks([3], 0)", chunks([3], 0), [])


def test_11():
    check("chunks([5], -1)", chunks([5], -1), [])


def test_12():
    check("chunks([6, 5], 0)", chunks([6, 5], 0), [])


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
