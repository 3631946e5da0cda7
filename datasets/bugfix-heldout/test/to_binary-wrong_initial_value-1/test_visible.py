"""Visible tests for to_binary.py."""
from to_binary import to_binary


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("to_binary(293)", to_binary(293), '100100101')


def test_2():
    check("to_binary(-35)", to_binary(-35), '-100011')


def test_3():
    check("to_binary(-97)", to_binary(-97), '-1100001')


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
