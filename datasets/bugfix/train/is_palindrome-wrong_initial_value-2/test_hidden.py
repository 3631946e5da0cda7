"""Hidden tests for is_palindrome.py: never shown to the agent."""
from is_palindrome import is_palindrome


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("is_palindrome(\"bab\")", is_palindrome("bab"), True)


def test_2():
    check("is_palindrome(\"\")", is_palindrome(""), True)


def test_3():
    check("is_palindrome(\"abbaa\")", is_palindrome("abbaa"), False)


def test_4():
    check("is_palindrome(\"bba\")", is_palindrome("bba"), False)


def test_5():
    check("is_palindrome(\"abaaba\")", is_palindrome("abaaba"), True)


def test_6():
    check("is_palindrome(\"abababa\")", is_palindrome("abababa"), True)


def test_7():
    check("is_palindrome(\"baaaaab\")", is_palindrome("baaaaab"), True)


def test_8():
    check("is_palindrome(\"aa\")", is_palindrome("aa"), True)


def test_9():
    check("is_palindrome(\"ab\")", is_palindrome("ab"), False)


def test_10():
    check("is_palindrome(\"aaaa\")", is_palindrome("aaaa"), True)


def test_11():
    check("is_palindrome(\"aba\")", is_palindrome("aba"), True)


def test_12():
    check("is_palindrome(\"aaba\")", is_palindrome("aaba"), False)


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
