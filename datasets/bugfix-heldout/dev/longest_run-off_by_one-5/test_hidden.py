"""Hidden tests for longest_run.py: never shown to the agent."""
from longest_run import longest_run


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("longest_run([2, 1])", longest_run([2, 1]), 1)


def test_2():
    check("longest_run([2, 1, 1, 0, 2, 1, 1])", longest_run([2, 1, 1, 0, 2, 1, 1]), 2)


def test_3():
    check("longest_run([0, 2, 0, 2, 2, 0, 2, 2])", longest_run([0, 2, 0, 2, 2, 0, 2, 2]), 2)


def test_4():
    check("longest_run([0, 1, 2, 1, 0, 1])", longest_run([0, 1, 2, 1, 0, 1]), 1)


def test_5():
    check("longest_run([0, 1, 0, 1])", longest_run([0, 1, 0, 1]), 1)


def test_6():
    check("longest_run([2])", longest_run([2]), 1)


def test_7():
    check("longest_run([1, 2, 2])", longest_run([1, 2, 2]), 2)


def test_8():
    check("longest_run([3, 3, 3, 1])", longest_run([3, 3, 3, 1]), 3)


def test_9():
    check("longest_run([1, 1, 2, 2, 2])", longest_run([1, 1, 2, 2, 2]), 3)


def test_10():
    check("longest_run([2, 2, 1, 1, 1, 1, 0, 2])", longest_run([2, 2, 1, 1, 1, 1, 0, 2]), 4)


def test_11():
    check("longest_run([0, 1, 2, 1, 1])", longest_run([0, 1, 2, 1, 1]), 2)


def test_12():
    check("longest_run([1, 0, 2, 2, 0, 1, 1, 0])", longest_run([1, 0, 2, 2, 0, 1, 1, 0]), 2)


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
