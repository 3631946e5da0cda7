"""Visible tests for shift_letters.py."""
from shift_letters import shift_letters


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("shift_letters(\"ac \", 33)", shift_letters("ac ", 33), 'hj ')


def test_2():
    check("shift_letters(\"\", 5)", shift_letters("", 5), '')


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
