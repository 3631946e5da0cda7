"""Hidden tests for word_score.py: never shown to the agent."""
from word_score import word_score


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("word_score(\"q\")", word_score("q"), 3)


def test_2():
    check("word_score(\"te\")", word_score("te"), 2)


def test_3():
    check("word_score(\"aqzz\")", word_score("aqzz"), 10)


def test_4():
    check("word_score(\"a\")", word_score("a"), 1)


def test_5():
    check("word_score(\"qteeqa\")", word_score("qteeqa"), 10)


def test_6():
    check("word_score(\"ggd\")", word_score("ggd"), 6)


def test_7():
    check("word_score(\"qtzdz\")", word_score("qtzdz"), 12)


def test_8():
    check("word_score(\"d\")", word_score("d"), 2)


def test_9():
    check("word_score(\"gzggazg\")", word_score("gzggazg"), 15)


def test_10():
    check("word_score(\"qee\")", word_score("qee"), 5)


def test_11():
    check("word_score(\"dd\")", word_score("dd"), 4)


def test_12():
    check("word_score(\"qa\")", word_score("qa"), 4)


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
