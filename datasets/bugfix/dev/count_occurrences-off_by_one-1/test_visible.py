"""Visible tests for count_occurrences.py."""
from count_occurrences import count_occurrences


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("count_occurrences(\"b\", \"bb\")", count_occurrences("b", "bb"), 0)


def test_2():
    check("count_occurrences(\"\", \"a\")", count_occurrences("", "a"), 0)


def test_3():
    check("count_occurrences(\"a\", \"a\")", count_occurrences("a", "a"), 1)


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
