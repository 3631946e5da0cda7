"""Visible tests for top_k.py."""
from top_k import top_k


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("top_k([5, 5, 8, 0, 1], 0)", top_k([5, 5, 8, 0, 1], 0), [])


def test_2():
    check("top_k([3, 1, 2], 2)", top_k([3, 1, 2], 2), [3, 2])


def test_3():
    check("top_k([], 0)", top_k([], 0), [])


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
