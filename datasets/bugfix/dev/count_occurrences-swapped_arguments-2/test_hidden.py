"""Hidden tests for count_occurrences.py: never shown to the agent."""
from count_occurrences import count_occurrences


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("count_occurrences(\"baaaaba\", \"ba\")", count_occurrences("baaaaba", "ba"), 2)


def test_2():
    check("count_occurrences(\"ab\", \"\")", count_occurrences("ab", ""), 0)


def test_3():
    check("count_occurrences(\"a\", \"aa\")", count_occurrences("a", "aa"), 0)


def test_4():
    check("count_occurrences(\"a\", \"a\")", count_occurrences("a", "a"), 1)


def test_5():
    check("count_occurrences(\"bbbba\", \"ab\")", count_occurrences("bbbba", "ab"), 0)


def test_6():
    check("count_occurrences(\"abbbbba\", \"ba\")", count_occurrences("abbbbba", "ba"), 1)


def test_7():
    check("count_occurrences(\"abc\", \"d\")", count_occurrences("abc", "d"), 0)


def test_8():
    check("count_occurrences(\"aabaa\", \"ab\")", count_occurrences("aabaa", "ab"), 1)


def test_9():
    check("count_occurrences(\"abbbaab\", \"a\")", count_occurrences("abbbaab", "a"), 3)


def test_10():
    check("count_occurrences(\"aaaa\", \"aa\")", count_occurrences("aaaa", "aa"), 2)


def test_11():
    check("count_occurrences(\"aaaab\", \"b\")", count_occurrences("aaaab", "b"), 1)


def test_12():
    check("count_occurrences(\"aababaa\", \"ab\")", count_occurrences("aababaa", "ab"), 2)


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
