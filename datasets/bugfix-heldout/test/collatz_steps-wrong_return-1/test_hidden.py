"""Hidden tests for collatz_steps.py: never shown to the agent."""
from collatz_steps import collatz_steps


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("collatz_steps(20)", collatz_steps(20), 7)


def test_2():
    check("collatz_steps(-3)", collatz_steps(-3), -1)


def test_3():
    check("collatz_steps(0)", collatz_steps(0), -1)


def test_4():
    check("collatz_steps(38)", collatz_steps(38), 21)


def test_5():
    check("collatz_steps(50)", collatz_steps(50), 24)


def test_6():
    check("collatz_steps(5)", collatz_steps(5), 5)


def test_7():
    check("collatz_steps(-5)", collatz_steps(-5), -1)


def test_8():
    check("collatz_steps(2)", collatz_steps(2), 1)


def test_9():
    check("collatz_steps(35)", collatz_steps(35), 13)


def test_10():
    check("collatz_steps(42)", collatz_steps(42), 8)


def test_11():
    check("collatz_steps(12)", collatz_steps(12), 9)


def test_12():
    check("collatz_steps(24)", collatz_steps(24), 10)


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
