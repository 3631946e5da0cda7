"""Hidden tests for count_words.py: never shown to the agent."""
from count_words import count_words


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("count_words(\"\")", count_words(""), 0)


def test_2():
    check("count_words(\"  \")", count_words("  "), 0)


def test_3():
    check("count_words(\"ab b aa\")", count_words("ab b aa"), 3)


def test_4():
    check("count_words(\"a a a  \")", count_words("a a a  "), 3)


def test_5():
    check("count_words(\"ba    \")", count_words("ba    "), 1)


def test_6():
    check("count_words(\"a a\")", count_words("a a"), 2)


def test_7():
    check("count_words(\"    a\")", count_words("    a"), 1)


def test_8():
    check("count_words(\" \")", count_words(" "), 0)


def test_9():
    check("count_words(\"abc\")", count_words("abc"), 1)


def test_10():
    check("count_words(\"b\")", count_words("b"), 1)


def test_11():
    check("count_words(\"a\")", count_words("a"), 1)


def test_12():
    check("count_words(\"aa\")", count_words("aa"), 1)


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
