"""Hidden tests for pascal_row.py: never shown to the agent."""
from pascal_row import pascal_row


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("pascal_row(-1)", pascal_row(-1), [])


def test_2():
    check("pascal_row(9)", pascal_row(9), [1, 9, 36, 84, 126, 126, 84, 36, 9, 1])


def test_3():
    check("pascal_row(0)", pascal_row(0), [1])


def test_4():
    check("pascal_row(8)", pascal_row(8), [1, 8, 28, 56, 70, 56, 28, 8, 1])


def test_5():
    check("pascal_row(2)", pascal_row(2), [1, 2, 1])


def test_6():
    check("pascal_row(1)", pascal_row(1), [1, 1])


def test_7():
    check("pascal_row(-2)", pascal_row(-2), [])


def test_8():
    check("pascal_row(7)", pascal_row(7), [1, 7, 21, 35, 35, 21, 7, 1])


def test_9():
    check("pascal_row(4)", pascal_row(4), [1, 4, 6, 4, 1])


def test_10():
    check("pascal_row(6)", pascal_row(6), [1, 6, 15, 20, 15, 6, 1])


def test_11():
    check("pascal_row(5)", pascal_row(5), [1, 5, 10, 10, 5, 1])


def test_12():
    check("pascal_row(3)", pascal_row(3), [1, 3, 3, 1])


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
