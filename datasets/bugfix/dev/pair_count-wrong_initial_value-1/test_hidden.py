"""Hidden tests for pair_count.py: never shown to the agent."""
from pair_count import pair_count


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("pair_count([1, 4, 6], 5)", pair_count([1, 4, 6], 5), 1)


def test_2():
    check("pair_count([5, 1, 3, 6, 6], 6)", pair_count([5, 1, 3, 6, 6], 6), 1)


def test_3():
    check("pair_count([1, 2, 5, 6, 1, 5], 7)", pair_count([1, 2, 5, 6, 1, 5], 7), 4)


def test_4():
    check("pair_count([2, 2], 4)", pair_count([2, 2], 4), 1)


def test_5():
    check("pair_count([1, 2, 0], 6)", pair_count([1, 2, 0], 6), 0)


def test_6():
    check("pair_count([], 4)", pair_count([], 4), 0)


def test_7():
    check("pair_count([0, 0, 0], 0)", pair_count([0, 0, 0], 0), 3)


def test_8():
    check("pair_count([4, 5, 1, 0, 6, 4], 3)", pair_count([4, 5, 1, 0, 6, 4], 3), 0)


def test_9():
    check("pair_count([2, 5, 5, 0], 9)", pair_count([2, 5, 5, 0], 9), 0)


def test_10():
    check("pair_count([5, 2, 6, 0, 3, 3], 5)", pair_count([5, 2, 6, 0, 3, 3], 5), 3)


def test_11():
    check("pair_count([4, 6, 5, 0, 5, 3], 2)", pair_count([4, 6, 5, 0, 5, 3], 2), 0)


def test_12():
    check("pair_count([1, 0, 1, 3, 2], 4)", pair_count([1, 0, 1, 3, 2], 4), 2)


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
