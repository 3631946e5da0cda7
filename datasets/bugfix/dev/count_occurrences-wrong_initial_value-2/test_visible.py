"""Visible tests for count_occurrences.py."""
from count_occurrences import count_occurrences


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("count_occurrences(\"ababa\", \"ba\")", count_occurrences("ababa", "ba"), 2)


def test_2():
    check("count_occurrences(\"ab\", \"\")", count_occurrences("ab", ""), 0)


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
