"""Hidden tests for coin_ways.py: never shown to the agent."""
from coin_ways import coin_ways


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("coin_ways(10, [])", coin_ways(10, []), 0)


def test_2():
    check("coin_ways(0, [3])", coin_ways(0, [3]), 1)


def test_3():
    check("coin_ways(5, [2, 3])", coin_ways(5, [2, 3]), 1)


def test_4():
    check("coin_ways(10, [6])", coin_ways(10, [6]), 0)


def test_5():
    check("coin_ways(13, [3, 4, 6, 2])", coin_ways(13, [3, 4, 6, 2]), 7)


def test_6():
    check("coin_ways(11, [1])", coin_ways(11, [1]), 1)


def test_7():
    check("coin_ways(8, [])", coin_ways(8, []), 0)


def test_8():
    check("coin_ways(0, [1, 2])", coin_ways(0, [1, 2]), 1)


def test_9():
    check("coin_ways(1, [])", coin_ways(1, []), 0)


def test_10():
    check("coin_ways(4, [])", coin_ways(4, []), 0)


def test_11():
    check("coin_ways(13, [])", coin_ways(13, []), 0)


def test_12():
    check("coin_ways(5, [])", coin_ways(5, []), 0)


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
