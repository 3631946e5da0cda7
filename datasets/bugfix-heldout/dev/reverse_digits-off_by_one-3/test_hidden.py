"""Hidden tests for reverse_digits.py: never shown to the agent."""
from reverse_digits import reverse_digits


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("reverse_digits(4411)", reverse_digits(4411), 1144)


def test_2():
    check("reverse_digits(6724)", reverse_digits(6724), 4276)


def test_3():
    check("reverse_digits(-1133)", reverse_digits(-1133), -3311)


def test_4():
    check("reverse_digits(1957)", reverse_digits(1957), 7591)


def test_5():
    check("reverse_digits(-1269)", reverse_digits(-1269), -9621)


def test_6():
    check("reverse_digits(-1551)", reverse_digits(-1551), -1551)


def test_7():
    check("reverse_digits(-2002)", reverse_digits(-2002), -2002)


def test_8():
    check("reverse_digits(-6376)", reverse_digits(-6376), -6736)


def test_9():
    check("reverse_digits(-310)", reverse_digits(-310), -13)


def test_10():
    check("reverse_digits(0)", reverse_digits(0), 0)


def test_11():
    check("reverse_digits(-4718)", reverse_digits(-4718), -8174)


def test_12():
    check("reverse_digits(-2329)", reverse_digits(-2329), -9232)


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
