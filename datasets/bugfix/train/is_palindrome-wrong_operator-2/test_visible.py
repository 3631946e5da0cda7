"""Visible tests for is_palindrome.py."""
from is_palindrome import is_palindrome


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("is_palindrome(\"bbbb\")", is_palindrome("bbbb"), True)


def test_2():
    check("is_palindrome(\"ab\")", is_palindrome("ab"), False)


def test_3():
    check("is_palindrome(\"abca\")", is_palindrome("abca"), False)


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
