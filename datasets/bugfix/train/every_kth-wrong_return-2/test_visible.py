"""Visible tests for every_kth.py."""
from every_kth import every_kth


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("every_kth([6], 0)", every_kth([6], 0), [])


def test_2():
    check("every_kth([1, 5, 1, 4, 4], 3)", every_kth([1, 5, 1, 4, 4], 3), [1])


def test_3():
    check("every_kth([1, 2, 3], 0)", every_kth([1, 2, 3], 0), [])


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
