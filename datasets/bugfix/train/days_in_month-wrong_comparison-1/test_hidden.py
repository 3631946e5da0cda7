"""Hidden tests for days_in_month.py: never shown to the agent."""
from days_in_month import days_in_month


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("days_in_month(1891, 2)", days_in_month(1891, 2), 28)


def test_2():
    check("days_in_month(1900, 2)", days_in_month(1900, 2), 28)


def test_3():
    check("days_in_month(2023, 1)", days_in_month(2023, 1), 31)


def test_4():
    check("days_in_month(1800, 2)", days_in_month(1800, 2), 28)


def test_5():
    check("days_in_month(1700, 2)", days_in_month(1700, 2), 28)


def test_6():
    check("days_in_month(2024, 2)", days_in_month(2024, 2), 29)


def test_7():
    check("days_in_month(2023, 12)", days_in_month(2023, 12), 31)


def test_8():
    check("days_in_month(2119, 9)", days_in_month(2119, 9), 30)


def test_9():
    check("days_in_month(1906, 2)", days_in_month(1906, 2), 28)


def test_10():
    check("days_in_month(2000, 2)", days_in_month(2000, 2), 29)


def test_11():
    check("days_in_month(1800, 9)", days_in_month(1800, 9), 30)


def test_12():
    check("days_in_month(1800, 4)", days_in_month(1800, 4), 30)


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
