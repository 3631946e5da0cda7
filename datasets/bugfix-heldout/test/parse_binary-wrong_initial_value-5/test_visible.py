"""Visible tests for parse_binary.py."""
from parse_binary import parse_binary


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("parse_binary(\"x1\")", parse_binary("x1"), -1)


def test_2():
    check("parse_binary(\"11111\")", parse_binary("11111"), 31)


def test_3():
    check("parse_binary(\"12\")", parse_binary("12"), -1)


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
