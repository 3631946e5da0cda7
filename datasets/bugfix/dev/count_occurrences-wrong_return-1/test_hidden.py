"""Hidden tests for count_occurrences.py: never shown to the agent."""
from count_occurrences import count_occurrences


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("count_occurrences(\"bbbbb\", \"bb\")", count_occurrences("bbbbb", "bb"), 2)


def test_2():
    check("count_occurrences(\"ab\", \"\")", count_occurrences("ab", ""), 0)


def test_3():
    check("count_occurrences(\"a\", \"aa\")", count_occurrences("a", "aa"), 0)


def test_4():
    check("count_occurrences(\"baab\", \"bb\")", count_occurrences("baab", "bb"), 0)


def test_5():
    check("count_occurrences(\"aaabab\", \"b\")", count_occurrences("aaabab", "b"), 2)


def test_6():
    check("count_occurrences(\"aababaa\", \"ab\")", count_occurrences("aababaa", "ab"), 2)


def test_7():
    check("count_occurrences(\"aba\", \"a\")", count_occurrences("aba", "a"), 2)


def test_8():
    check("count_occurrences(\"bbabbaba\", \"bb\")", count_occurrences("bbabbaba", "bb"), 2)


def test_9():
    check("count_occurrences(\"babbbbba\", \"a\")", count_occurrences("babbbbba", "a"), 2)


def test_10():
    check("count_occurrences(\"\", \"a\")", count_occurrences("", "a"), 0)


def test_11():
    check("count_occurrences(\"aaaa\", \"aa\")", count_occurrences("aaaa", "aa"), 2)


def test_12():
    check("count_occurrences(\"bb\", \"b\")", count_occurrences("bb", "b"), 2)


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
