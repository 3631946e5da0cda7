"""Hidden tests for balanced_parens.py: never shown to the agent."""
from balanced_parens import balanced_parens


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("balanced_parens(\"(((()(\")", balanced_parens("(((()("), False)


def test_2():
    check("balanced_parens(\"a(b)c\")", balanced_parens("a(b)c"), True)


def test_3():
    check("balanced_parens(\"(()x((\")", balanced_parens("(()x(("), False)


def test_4():
    check("balanced_parens(\"x\")", balanced_parens("x"), True)


def test_5():
    check("balanced_parens(\"(\")", balanced_parens("("), False)


def test_6():
    check("balanced_parens(\"(())()\")", balanced_parens("(())()"), True)


def test_7():
    check("balanced_parens(\"())(\")", balanced_parens("())("), False)


def test_8():
    check("balanced_parens(\"))((x))\")", balanced_parens("))((x))"), False)


def test_9():
    check("balanced_parens(\")(x)()\")", balanced_parens(")(x)()"), False)


def test_10():
    check("balanced_parens(\")((\")", balanced_parens(")(("), False)


def test_11():
    check("balanced_parens(\"x)x((\")", balanced_parens("x)x(("), False)


def test_12():
    check("balanced_parens(\")(x((x(\")", balanced_parens(")(x((x("), False)


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
