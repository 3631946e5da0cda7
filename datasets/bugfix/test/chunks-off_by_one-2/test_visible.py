"""Visible tests for chunks.py."""
from chunks import chunks


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("chunks([1, 2], 2)", chunks([1, 2], 2), [[1, 2]])


def test_2():
    check("chunks([8, 5, 5, 7], 2)", chunks([8, 5, 5, 7], 2), [[8, 5], [5, 7]])


def test_3():
    check("chunks([3, 0, 5, 8], -1)", chunks([3, 0, 5, 8], -1), [])


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
