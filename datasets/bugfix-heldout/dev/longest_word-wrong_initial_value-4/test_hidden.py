"""Hidden tests for longest_word.py: never shown to the agent."""
from longest_word import longest_word


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("longest_word(\"\")", longest_word(""), '')


def test_2():
    check("longest_word(\"a\")", longest_word("a"), 'a')


def test_3():
    check("longest_word(\" a\")", longest_word(" a"), 'a')


def test_4():
    check("longest_word(\" a   bab \")", longest_word(" a   bab "), 'bab')


def test_5():
    check("longest_word(\"ab c\")", longest_word("ab c"), 'ab')


def test_6():
    check("longest_word(\"ac aaa  \")", longest_word("ac aaa  "), 'aaa')


def test_7():
    check("longest_word(\"ca\")", longest_word("ca"), 'ca')


def test_8():
    check("longest_word(\"cb\")", longest_word("cb"), 'cb')


def test_9():
    check("longest_word(\"one three five\")", longest_word("one three five"), 'three')


def test_10():
    check("longest_word(\"a    aab\")", longest_word("a    aab"), 'aab')


def test_11():
    check("longest_word(\"b \")", longest_word("b "), 'b')


def test_12():
    check("longest_word(\"a     bb \")", longest_word("a     bb "), 'bb')


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
