"""Hidden tests for sum_multiples.py: never shown to the agent."""
from sum_multiples import sum_multiples


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("sum_multiples(35, 1, 1)", sum_multiples(35, 1, 1), 595)


def test_2():
    check("sum_multiples(0, 6, -1)", sum_multiples(0, 6, -1), 0)


def test_3():
    check("sum_multiples(39, 2, 5)", sum_multiples(39, 2, 5), 460)


def test_4():
    check("sum_multiples(16, 4, 1)", sum_multiples(16, 4, 1), 120)


def test_5():
    check("sum_multiples(7, 7, 7)", sum_multiples(7, 7, 7), 0)


def test_6():
    check("sum_multiples(38, 2, 6)", sum_multiples(38, 2, 6), 342)


def test_7():
    check("sum_multiples(20, 0, 5)", sum_multiples(20, 0, 5), 0)


def test_8():
    check("sum_multiples(8, -1, 0)", sum_multiples(8, -1, 0), 0)


def test_9():
    check("sum_multiples(12, 4, -1)", sum_multiples(12, 4, -1), 0)


def test_10():
    check("sum_multiples(38, 0, 2)", sum_multiples(38, 0, 2), 0)


def test_11():
    check("sum_multiples(0, 0, 4)", sum_multiples(0, 0, 4), 0)


def test_12():
    check("sum_multiples(34, 0, 2)", sum_multiples(34, 0, 2), 0)


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
