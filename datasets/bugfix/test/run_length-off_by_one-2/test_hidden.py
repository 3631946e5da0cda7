"""Hidden tests for run_length.py: never shown to the agent."""
from run_length import run_length


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("run_length(\"\")", run_length(""), '')


def test_2():
    check("run_length(\"aaabaa\")", run_length("aaabaa"), 'a3b1a2')


def test_3():
    check("run_length(\"baabaa\")", run_length("baabaa"), 'b1a2b1a2')


def test_4():
    check("run_length(\"aabba\")", run_length("aabba"), 'a2b2a1')


def test_5():
    check("run_length(\"aab\")", run_length("aab"), 'a2b1')


def test_6():
    check("run_length(\"aabccc\")", run_length("aabccc"), 'a2b1c3')


def test_7():
    check("run_length(\"ab\")", run_length("ab"), 'a1b1')


def test_8():
    check("run_length(\"bbaa\")", run_length("bbaa"), 'b2a2')


def test_9():
    check("run_length(\"baaabaaa\")", run_length("baaabaaa"), 'b1a3b1a3')


def test_10():
    check("run_length(\"abba\")", run_length("abba"), 'a1b2a1')


def test_11():
    check("run_length(\"bb\")", run_length("bb"), 'b2')


def test_12():
    check("run_length(\"aaaabb\")", run_length("aaaabb"), 'a4b2')


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
