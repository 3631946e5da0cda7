"""Hidden tests for reverse_digits.py: never shown to the agent."""
from reverse_digits import reverse_digits


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("reverse_digits(5663)", reverse_digits(5663), 3665)


def test_2():
    check("reverse_digits(-1541)", reverse_digits(-1541), -1451)


def test_3():
    check("reverse_digits(10014)", reverse_digits(10014), 41001)


def test_4():
    check("reverse_digits(-4825)", reverse_digits(-4825), -5284)


def test_5():
    check("reverse_digits(-6376)", reverse_digits(-6376), -6736)


def test_6():
    check("reverse_digits(-4322)", reverse_digits(-4322), -2234)


def test_7():
    check("reverse_digits(1258)", reverse_digits(1258), 8521)


def test_8():
    check("reverse_digits(11561)", reverse_digits(11561), 16511)


def test_9():
    check("reverse_digits(8385)", reverse_digits(8385), 5838)


def test_10():
    check("reverse_digits(6724)", reverse_digits(6724), 4276)


def test_11():
    check("reverse_digits(2311)", reverse_digits(2311), 1132)


def test_12():
    check("reverse_digits(1040)", reverse_digits(1040), 401)


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
