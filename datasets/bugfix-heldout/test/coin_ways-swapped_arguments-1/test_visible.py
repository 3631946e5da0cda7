"""Visible tests for coin_ways.py."""
from coin_ways import coin_ways


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("coin_ways(12, [1])", coin_ways(12, [1]), 1)


def test_2():
    check("coin_ways(13, [])", coin_ways(13, []), 0)


def test_3():
    check("coin_ways(4, [])", coin_ways(4, []), 0)


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
