"""Visible tests for longest_word.py."""
from longest_word import longest_word


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("longest_word(\"a bc\")", longest_word("a bc"), 'bc')


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
