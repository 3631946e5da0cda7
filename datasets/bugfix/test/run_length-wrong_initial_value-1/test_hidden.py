"""Hidden tests for run_length.py: never shown to the agent."""
from run_length import run_length


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("run_length(\"bababaa\")", run_length("bababaa"), 'b1a1b1a1b1a2')


def test_2():
    check("run_length(\"\")", run_length(""), '')


def test_3():
    check("run_length(\"bbbbaaa\")", run_length("bbbbaaa"), 'b4a3')


def test_4():
    check("run_length(\"abba\")", run_length("abba"), 'a1b2a1')


def test_5():
    check("run_length(\"a\")", run_length("a"), 'a1')


def test_6():
    check("run_length(\"baabaa\")", run_length("baabaa"), 'b1a2b1a2')


def test_7():
    check("run_length(\"baaabaaa\")", run_length("baaabaaa"), 'b1a3b1a3')


def test_8():
    check("run_length(\"ab\")", run_length("ab"), 'a1b1')


def test_9():
    check("run_length(\"aabbabb\")", run_length("aabbabb"), 'a2b2a1b2')


def test_10():
    check("run_length(\"aaabaa\")", run_length("aaabaa"), 'a3b1a2')


def test_11():
    check("run_length(\"bbaa\")", run_length("bbaa"), 'b2a2')


def test_12():
    check("run_length(\"bbabbba\")", run_length("bbabbba"), 'b2a1b3a1')


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
