"""Hidden tests for fizzbuzz.py: never shown to the agent."""
from fizzbuzz import fizzbuzz


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("fizzbuzz(15)", fizzbuzz(15), 'FizzBuzz')


def test_2():
    check("fizzbuzz(28)", fizzbuzz(28), '28')


def test_3():
    check("fizzbuzz(20)", fizzbuzz(20), 'Buzz')


def test_4():
    check("fizzbuzz(10)", fizzbuzz(10), 'Buzz')


def test_5():
    check("fizzbuzz(5)", fizzbuzz(5), 'Buzz')


def test_6():
    check("fizzbuzz(23)", fizzbuzz(23), '23')


def test_7():
    check("fizzbuzz(18)", fizzbuzz(18), 'Fizz')


def test_8():
    check("fizzbuzz(42)", fizzbuzz(42), 'Fizz')


def test_9():
    check("fizzbuzz(37)", fizzbuzz(37), '37')


def test_10():
    check("fizzbuzz(3)", fizzbuzz(3), 'Fizz')


def test_11():
    check("fizzbuzz(22)", fizzbuzz(22), '22')


def test_12():
    check("fizzbuzz(9)", fizzbuzz(9), 'Fizz')


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
