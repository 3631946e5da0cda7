"""Visible tests for balanced_parens.py."""
from balanced_parens import balanced_parens


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("balanced_parens(\"))((x))\")", balanced_parens("))((x))"), False)


def test_2():
    check("balanced_parens(\"())\")", balanced_parens("())"), False)


def test_3():
    check("balanced_parens(\"(\")", balanced_parens("("), False)


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
