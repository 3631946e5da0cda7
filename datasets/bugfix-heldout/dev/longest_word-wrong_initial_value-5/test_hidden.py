"""Hidden tests for longest_word.py: never shown to the agent."""
from longest_word import longest_word


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("longest_word(\"aa  \")", longest_word("aa  "), 'aa')


def test_2():
    check("longest_word(\"a     bb \")", longest_word("a     bb "), 'bb')


def test_3():
    check("longest_word(\"  cc  ab\")", longest_word("  cc  ab"), 'cc')


def test_4():
    check("longest_word(\"ab cd\")", longest_word("ab cd"), 'ab')


def test_5():
    check("longest_word(\"a\")", longest_word("a"), 'a')


def test_6():
    check("longest_word(\"b  bc\")", longest_word("b  bc"), 'bc')


def test_7():
    check("longest_word(\"a bc\")", longest_word("a bc"), 'bc')


def test_8():
    check("longest_word(\"a  \")", longest_word("a  "), 'a')


def test_9():
    check("longest_word(\"b \")", longest_word("b "), 'b')


def test_10():
    check("longest_word(\" bb  bb c \")", longest_word(" bb  bb c "), 'bb')


def test_11():
    check("longest_word(\"ca\")", longest_word("ca"), 'ca')


def test_12():
    check("longest_word(\"a    aab\")", longest_word("a    aab"), 'aab')


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
