"""Hidden tests for parse_binary.py: never shown to the agent."""
from parse_binary import parse_binary


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("parse_binary(\"0001101\")", parse_binary("0001101"), 13)


def test_2():
    check("parse_binary(\"1001100\")", parse_binary("1001100"), 76)


def test_3():
    check("parse_binary(\"12\")", parse_binary("12"), -1)


def test_4():
    check("parse_binary(\"200111\")", parse_binary("200111"), -1)


def test_5():
    check("parse_binary(\"1201100\")", parse_binary("1201100"), -1)


def test_6():
    check("parse_binary(\"0120211\")", parse_binary("0120211"), -1)


def test_7():
    check("parse_binary(\"11011\")", parse_binary("11011"), 27)


def test_8():
    check("parse_binary(\"100101\")", parse_binary("100101"), 37)


def test_9():
    check("parse_binary(\"001\")", parse_binary("001"), 1)


def test_10():
    check("parse_binary(\"11100\")", parse_binary("11100"), 28)


def test_11():
    check("parse_binary(\"0010\")", parse_binary("0010"), 2)


def test_12():
    check("parse_binary(\"0000\")", parse_binary("0000"), 0)


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
