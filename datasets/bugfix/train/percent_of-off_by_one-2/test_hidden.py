"""Hidden tests for percent_of.py: never shown to the agent."""
from percent_of import percent_of


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("percent_of(9, 9)", percent_of(9, 9), 100)


def test_2():
    check("percent_of(3, 4)", percent_of(3, 4), 75)


def test_3():
    check("percent_of(11, 0)", percent_of(11, 0), 0)


def test_4():
    check("percent_of(5, 0)", percent_of(5, 0), 0)


def test_5():
    check("percent_of(2, -1)", percent_of(2, -1), 0)


def test_6():
    check("percent_of(1, 0)", percent_of(1, 0), 0)


def test_7():
    check("percent_of(7, 3)", percent_of(7, 3), 100)


def test_8():
    check("percent_of(11, 8)", percent_of(11, 8), 100)


def test_9():
    check("percent_of(8, 1)", percent_of(8, 1), 100)


def test_10():
    check("percent_of(3, 5)", percent_of(3, 5), 60)


def test_11():
    check("percent_of(10, 3)", percent_of(10, 3), 100)


def test_12():
    check("percent_of(11, 9)", percent_of(11, 9), 100)


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
