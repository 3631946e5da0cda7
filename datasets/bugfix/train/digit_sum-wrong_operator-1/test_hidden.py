"""Hidden tests for digit_sum.py: never shown to the agent."""
from digit_sum import digit_sum


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("digit_sum(0)", digit_sum(0), 0)


def test_2():
    check("digit_sum(-3087)", digit_sum(-3087), 18)


def test_3():
    check("digit_sum(4372)", digit_sum(4372), 16)


def test_4():
    check("digit_sum(3556)", digit_sum(3556), 19)


def test_5():
    check("digit_sum(2408)", digit_sum(2408), 14)


def test_6():
    check("digit_sum(-1521)", digit_sum(-1521), 9)


def test_7():
    check("digit_sum(-1110)", digit_sum(-1110), 3)


def test_8():
    check("digit_sum(13727)", digit_sum(13727), 20)


def test_9():
    check("digit_sum(-3863)", digit_sum(-3863), 20)


def test_10():
    check("digit_sum(7767)", digit_sum(7767), 27)


def test_11():
    check("digit_sum(-45)", digit_sum(-45), 9)


def test_12():
    check("digit_sum(-87)", digit_sum(-87), 15)


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
