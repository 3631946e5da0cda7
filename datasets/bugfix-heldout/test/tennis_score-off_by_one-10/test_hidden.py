"""Hidden tests for tennis_score.py: never shown to the agent."""
from tennis_score import tennis_score


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("tennis_score(0, 5)", tennis_score(0, 5), 'game B')


def test_2():
    check("tennis_score(3, 4)", tennis_score(3, 4), 'advantage B')


def test_3():
    check("tennis_score(4, 3)", tennis_score(4, 3), 'advantage A')


def test_4():
    check("tennis_score(4, 5)", tennis_score(4, 5), 'advantage B')


def test_5():
    check("tennis_score(5, 6)", tennis_score(5, 6), 'advantage B')


def test_6():
    check("tennis_score(7, 6)", tennis_score(7, 6), 'advantage A')


def test_7():
    check("tennis_score(5, 3)", tennis_score(5, 3), 'game A')


def test_8():
    check("tennis_score(1, 4)", tennis_score(1, 4), 'game B')


def test_9():
    check("tennis_score(2, 4)", tennis_score(2, 4), 'game B')


def test_10():
    check("tennis_score(1, 7)", tennis_score(1, 7), 'game B')


def test_11():
    check("tennis_score(3, 3)", tennis_score(3, 3), 'deuce')


def test_12():
    check("tennis_score(2, 6)", tennis_score(2, 6), 'game B')


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
