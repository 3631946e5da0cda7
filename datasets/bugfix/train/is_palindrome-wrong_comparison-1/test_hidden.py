"""Hidden tests for is_palindrome.py: never shown to the agent."""
from is_palindrome import is_palindrome


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("is_palindrome(\"abbaa\")", is_palindrome("abbaa"), False)


def test_2():
    check("is_palindrome(\"aababaa\")", is_palindrome("aababaa"), True)


def test_3():
    check("is_palindrome(\"bb\")", is_palindrome("bb"), True)


def test_4():
    check("is_palindrome(\"ab\")", is_palindrome("ab"), False)


def test_5():
    check("is_palindrome(\"baa\")", is_palindrome("baa"), False)


def test_6():
    check("is_palindrome(\"aaba\")", is_palindrome("aaba"), False)


def test_7():
    check("is_palindrome(\"abcba\")", is_palindrome("abcba"), True)


def test_8():
    check("is_palindrome(\"a\")", is_palindrome("a"), True)


def test_9():
    check("is_palindrome(\"baaaaab\")", is_palindrome("baaaaab"), True)


def test_10():
    check("is_palindrome(\"aaa\")", is_palindrome("aaa"), True)


def test_11():
    check("is_palindrome(\"baaaaaab\")", is_palindrome("baaaaaab"), True)


def test_12():
    check("is_palindrome(\"babab\")", is_palindrome("babab"), True)


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
