"""Hidden tests for word_score.py: never shown to the agent."""
from word_score import word_score


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("word_score(\"\")", word_score(""), 0)


def test_2():
    check("word_score(\"dt\")", word_score("dt"), 3)


def test_3():
    check("word_score(\"gzggazg\")", word_score("gzggazg"), 15)


def test_4():
    check("word_score(\"ageaqg\")", word_score("ageaqg"), 10)


def test_5():
    check("word_score(\"ta\")", word_score("ta"), 2)


def test_6():
    check("word_score(\"zzeaz\")", word_score("zzeaz"), 11)


def test_7():
    check("word_score(\"d\")", word_score("d"), 2)


def test_8():
    check("word_score(\"te\")", word_score("te"), 2)


def test_9():
    check("word_score(\"ggd\")", word_score("ggd"), 6)


def test_10():
    check("word_score(\"dd\")", word_score("dd"), 4)


def test_11():
    check("word_score(\"z\")", word_score("z"), 3)


def test_12():
    check("word_score(\"dog\")", word_score("dog"), 5)


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
