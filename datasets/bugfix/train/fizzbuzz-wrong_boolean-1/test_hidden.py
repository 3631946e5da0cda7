"""Hidden tests for fizzbuzz.py: never shown to the agent."""
from fizzbuzz import fizzbuzz


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("fizzbuzz(32)", fizzbuzz(32), '32')


def test_2():
    check("fizzbuzz(15)", fizzbuzz(15), 'FizzBuzz')


def test_3():
    check("fizzbuzz(27)", fizzbuzz(27), 'Fizz')


def test_4():
    check("fizzbuzz(5)", fizzbuzz(5), 'Buzz')


def test_5():
    check("fizzbuzz(18)", fizzbuzz(18), 'Fizz')


def test_6():
    check("fizzbuzz(39)", fizzbuzz(39), 'Fizz')


def test_7():
    check("fizzbuzz(8)", fizzbuzz(8), '8')


def test_8():
    check("fizzbuzz(7)", fizzbuzz(7), '7')


def test_9():
    check("fizzbuzz(31)", fizzbuzz(31), '31')


def test_10():
    check("fizzbuzz(34)", fizzbuzz(34), '34')


def test_11():
    check("fizzbuzz(28)", fizzbuzz(28), '28')


def test_12():
    check("fizzbuzz(11)", fizzbuzz(11), '11')


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
