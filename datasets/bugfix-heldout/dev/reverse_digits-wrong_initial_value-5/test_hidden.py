"""Hidden tests for reverse_digits.py: never shown to the agent."""
from reverse_digits import reverse_digits


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("reverse_digits(12)", reverse_digits(12), 21)


def test_2():
    check("reverse_digits(5663)", reverse_digits(5663), 3665)


def test_3():
    check("reverse_digits(-4322)", reverse_digits(-4322), -2234)


def test_4():
    check("reverse_digits(-4825)", reverse_digits(-4825), -5284)


def test_5():
    check("reverse_digits(-2329)", reverse_digits(-2329), -9232)


def test_6():
    check("reverse_digits(-2002)", reverse_digits(-2002), -2002)


def test_7():
    check("reverse_digits(4411)", reverse_digits(4411), 1144)


def test_8():
    check("reverse_digits(3616)", reverse_digits(3616), 6163)


def test_9():
    check("reverse_digits(464)", reverse_digits(464), 464)


def test_10():
    check("reverse_digits(264)", reverse_digits(264), 462)


def test_11():
    check("reverse_digits(0)", reverse_digits(0), 0)


def test_12():
    check("reverse_digits(11561)", reverse_digits(11561), 16511)


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
