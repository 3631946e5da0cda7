"""Visible tests for percent_of.py."""
from percent_of import percent_of


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("percent_of(2, -1)", percent_of(2, -1), 0)


def test_2():
    check("percent_of(7, 0)", percent_of(7, 0), 0)


def test_3():
    check("percent_of(1, 8)", percent_of(1, 8), 12)


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
