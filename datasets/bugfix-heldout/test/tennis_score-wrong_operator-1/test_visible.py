"""Visible tests for tennis_score.py."""
from tennis_score import tennis_score


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("tennis_score(3, 4)", tennis_score(3, 4), 'advantage B')


def test_2():
    check("tennis_score(1, 2)", tennis_score(1, 2), '15-30')


def test_3():
    check("tennis_score(1, 7)", tennis_score(1, 7), 'game B')


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
