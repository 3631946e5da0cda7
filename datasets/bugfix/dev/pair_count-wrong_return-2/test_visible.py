"""Visible tests for pair_count.py."""
from pair_count import pair_count


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("pair_count([5, 1, 0, 2], 6)", pair_count([5, 1, 0, 2], 6), 1)


def test_2():
    check("pair_count([4], 9)", pair_count([4], 9), 0)


def test_3():
    check("pair_count([4], 4)", pair_count([4], 4), 0)


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
