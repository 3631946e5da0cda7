"""Hidden tests for reverse_digits.py: never shown to the agent."""
from reverse_digits import reverse_digits


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("reverse_digits(5)", reverse_digits(5), 5)


def test_2():
    check("reverse_digits(0)", reverse_digits(0), 0)


def test_3():
    check("reverse_digits(-4825)", reverse_digits(-4825), -5284)


def test_4():
    check("reverse_digits(264)", reverse_digits(264), 462)


def test_5():
    check("reverse_digits(-4322)", reverse_digits(-4322), -2234)


def test_6():
    check("reverse_digits(6606)", reverse_digits(6606), 6066)


def test_7():
    check("reverse_digits(100)", reverse_digits(100), 1)


def test_8():
    check("reverse_digits(1040)", reverse_digits(1040), 401)


def test_9():
    check("reverse_digits(-310)", reverse_digits(-310), -13)


def test_10():
    check("reverse_digits(8385)", reverse_digits(8385), 5838)


def test_11():
    check("reverse_digits(-1269)", reverse_digits(-1269), -9621)


def test_12():
    check("reverse_digits(-1081)", reverse_digits(-1081), -1801)


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
