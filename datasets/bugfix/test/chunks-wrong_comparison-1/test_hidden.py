"""Hidden tests for chunks.py: never shown to the agent."""
from chunks import chunks


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("chunks([1, 7, 2, 8], 3)", chunks([1, 7, 2, 8], 3), [[1, 7, 2], [8]])


def test_2():
    check("chunks([5, 4, 0, 2, 9, 2], 0)", chunks([5, 4, 0, 2, 9, 2], 0), [])


def test_3():
    check("chunks([6, 5], -1)", chunks([6, 5], -1), [])


def test_4():
    check("chunks([8, 5, 2, 2, 3, 4, 2], 2)", chunks([8, 5, 2, 2, 3, 4, 2], 2), [[8, 5], [2, 2], [3, 4], [2]])


def test_5():
    check("chunks([6, 1, 4, 7, 9, 3, 7], 3)", chunks([6, 1, 4, 7, 9, 3, 7], 3), [[6, 1, 4], [7, 9, 3], [7]])


def test_6():
    check("chunks([8, 7, 2, 3, 2, 6, 2], 2)", chunks([8, 7, 2, 3, 2, 6, 2], 2), [[8, 7], [2, 3], [2, 6], [2]])


def test_7():
    check("chunks([3, 0, 5, 8], -1)", chunks([3, 0, 5, 8], -1), [])


def test_8():
    check("chunks([4, 4, 3, 1, 4, 6, 1], -1)", chunks([4, 4, 3, 1, 4, 6, 1], -1), [])


def test_9():
    check("chunks([5], -1)", chunks([5], -1), [])


def test_10():
    check("chunks([2, 9, 8, 6, 8], -1)", chunks([2, 9, 8, 6, 8], -1), [])


def test_11():
    check("chunks([3], 0)", chunks([3], 0), [])


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
