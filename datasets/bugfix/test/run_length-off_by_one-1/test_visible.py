"""Visible tests for run_length.py."""
from run_length import run_length


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("run_length(\"aaaaa\")", run_length("aaaaa"), 'a5')


def test_2():
    check("run_length(\"bbbbaaa\")", run_length("bbbbaaa"), 'b4a3')


def test_3():
    check("run_length(\"ab\")", run_length("ab"), 'a1b1')


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
