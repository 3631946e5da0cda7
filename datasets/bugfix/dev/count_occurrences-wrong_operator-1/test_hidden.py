"""Hidden tests for count_occurrences.py: never shown to the agent."""
from count_occurrences import count_occurrences


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("count_occurrences(\"aaaab\", \"b\")", count_occurrences("aaaab", "b"), 1)


def test_2():
    check("count_occurrences(\"baabab\", \"bb\")", count_occurrences("baabab", "bb"), 0)


def test_3():
    check("count_occurrences(\"ab\", \"\")", count_occurrences("ab", ""), 0)


def test_4():
    check("count_occurrences(\"aaaabb\", \"bb\")", count_occurrences("aaaabb", "bb"), 1)


def test_5():
    check("count_occurrences(\"aaa\", \"a\")", count_occurrences("aaa", "a"), 3)


def test_6():
    check("count_occurrences(\"abab\", \"ab\")", count_occurrences("abab", "ab"), 2)


def test_7():
    check("count_occurrences(\"abc\", \"d\")", count_occurrences("abc", "d"), 0)


def test_8():
    check("count_occurrences(\"b\", \"bb\")", count_occurrences("b", "bb"), 0)


def test_9():
    check("count_occurrences(\"\", \"a\")", count_occurrences("", "a"), 0)


def test_10():
    check("count_occurrences(\"baab\", \"bb\")", count_occurrences("baab", "bb"), 0)


def test_11():
    check("count_occurrences(\"bb\", \"a\")", count_occurrences("bb", "a"), 0)


def test_12():
    check("count_occurrences(\"a\", \"aa\")", count_occurrences("a", "aa"), 0)


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
