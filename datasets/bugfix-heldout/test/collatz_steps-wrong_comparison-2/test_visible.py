"""Visible tests for collatz_steps.py."""
from collatz_steps import collatz_steps


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("collatz_steps(32)", collatz_steps(32), 5)


def test_2():
    check("collatz_steps(-3)", collatz_steps(-3), -1)


def test_3():
    check("collatz_steps(-5)", collatz_steps(-5), -1)


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
