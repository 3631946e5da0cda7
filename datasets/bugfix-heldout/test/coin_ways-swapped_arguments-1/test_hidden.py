"""Hidden tests for coin_ways.py: never shown to the agent."""
from coin_ways import coin_ways


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("coin_ways(12, [1])", coin_ways(12, [1]), 1)


def test_2():
    check("coin_ways(13, [])", coin_ways(13, []), 0)


def test_3():
    check("coin_ways(4, [])", coin_ways(4, []), 0)


def test_4():
    check("coin_ways(13, [1, 6, 3, 5])", coin_ways(13, [1, 6, 3, 5]), 15)


def test_5():
    check("coin_ways(8, [5, 1])", coin_ways(8, [5, 1]), 2)


def test_6():
    check("coin_ways(13, [3, 4, 6, 2])", coin_ways(13, [3, 4, 6, 2]), 7)


def test_7():
    check("coin_ways(14, [5, 6])", coin_ways(14, [5, 6]), 0)


def test_8():
    check("coin_ways(10, [6])", coin_ways(10, [6]), 0)


def test_9():
    check("coin_ways(7, [6, 5])", coin_ways(7, [6, 5]), 0)


def test_10():
    check("coin_ways(3, [2])", coin_ways(3, [2]), 0)


def test_11():
    check("coin_ways(5, [])", coin_ways(5, []), 0)


def test_12():
    check("coin_ways(7, [])", coin_ways(7, []), 0)


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
