"""Visible tests for lcm.py."""
from lcm import lcm


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("lcm(0, 5)", lcm(0, 5), 0)


def test_2():
    check("lcm(22, 22)", lcm(22, 22), 22)


def test_3():
    check("lcm(4, 0)", lcm(4, 0), 0)


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
