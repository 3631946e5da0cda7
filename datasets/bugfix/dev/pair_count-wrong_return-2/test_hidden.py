"""Hidden tests for pair_count.py: never shown to the agent."""
from pair_count import pair_count


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("pair_count([5, 1, 0, 2], 6)", pair_count([5, 1, 0, 2], 6), 1)


def test_2():
    check("pair_count([4], 9)", pair_count([4], 9), 0)


def test_3():
    check("pair_count([4], 4)", pair_count([4], 4), 0)


def test_4():
    check("pair_count([6, 5, 5, 2, 0], 9)", pair_count([6, 5, 5, 2, 0], 9), 0)


def test_5():
    check("pair_count([1, 1, 2, 3, 2], 5)", pair_count([1, 1, 2, 3, 2], 5), 2)


def test_6():
    check("pair_count([4, 4, 3, 0], 1)", pair_count([4, 4, 3, 0], 1), 0)


def test_7():
    check("pair_count([1], 8)", pair_count([1], 8), 0)


def test_8():
    check("pair_count([2, 2], 4)", pair_count([2, 2], 4), 1)


def test_9():
    check("pair_count([1], 2)", pair_count([1], 2), 0)


def test_10():
    check("pair_count([6], 9)", pair_count([6], 9), 0)


def test_11():
    check("pair_count([1, 4, 6], 5)", pair_count([1, 4, 6], 5), 1)


def test_12():
    check("pair_count([0, 0, 0], 0)", pair_count([0, 0, 0], 0), 3)


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
