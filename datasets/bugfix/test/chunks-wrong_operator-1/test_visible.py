"""Visible tests for chunks.py."""
from chunks import chunks


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("chunks([4, 9, 2], 2)", chunks([4, 9, 2], 2), [[4, 9], [2]])


def test_2():
    check("chunks([5, 4, 0, 2, 9, 2], 0)", chunks([5, 4, 0, 2, 9, 2], 0), [])


def test_3():
    check("chunks([], 0)", chunks([], 0), [])


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
