"""Visible tests for chunks.py."""
from chunks import chunks


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("chunks([1, 2, 3], 0)", chunks([1, 2, 3], 0), [])


def test_2():
    check("chunks([4, 4, 3, 1, 4, 6, 1], -1)", chunks([4, 4, 3, 1, 4, 6, 1], -1), [])


def test_3():
    check("chunks([], 2)", chunks([], 2), [])


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
