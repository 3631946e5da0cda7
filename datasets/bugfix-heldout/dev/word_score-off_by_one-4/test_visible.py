"""Visible tests for word_score.py."""
from word_score import word_score


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("word_score(\"te\")", word_score("te"), 2)


def test_2():
    check("word_score(\"qteeqa\")", word_score("qteeqa"), 10)


def test_3():
    check("word_score(\"ag\")", word_score("ag"), 3)


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
