"""Hidden tests for parse_binary.py: never shown to the agent."""
from parse_binary import parse_binary


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("parse_binary(\"x1\")", parse_binary("x1"), -1)


def test_2():
    check("parse_binary(\"11111\")", parse_binary("11111"), 31)


def test_3():
    check("parse_binary(\"12\")", parse_binary("12"), -1)


def test_4():
    check("parse_binary(\"10\")", parse_binary("10"), 2)


def test_5():
    check("parse_binary(\"001\")", parse_binary("001"), 1)


def test_6():
    check("parse_binary(\"0010101\")", parse_binary("0010101"), 21)


def test_7():
    check("parse_binary(\"\")", parse_binary(""), -1)


def test_8():
    check("parse_binary(\"102\")", parse_binary("102"), -1)


def test_9():
    check("parse_binary(\"0120211\")", parse_binary("0120211"), -1)


def test_10():
    check("parse_binary(\"011210\")", parse_binary("011210"), -1)


def test_11():
    check("parse_binary(\"110120\")", parse_binary("110120"), -1)


def test_12():
    check("parse_binary(\"11021\")", parse_binary("11021"), -1)


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
