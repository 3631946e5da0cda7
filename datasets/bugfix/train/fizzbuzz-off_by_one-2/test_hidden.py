"""Hidden tests for fizzbuzz.py: never shown to the agent."""
from fizzbuzz import fizzbuzz


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("fizzbuzz(22)", fizzbuzz(22), '22')


def test_2():
    check("fizzbuzz(15)", fizzbuzz(15), 'FizzBuzz')


def test_3():
    check("fizzbuzz(1)", fizzbuzz(1), '1')


def test_4():
    check("fizzbuzz(30)", fizzbuzz(30), 'FizzBuzz')


def test_5():
    check("fizzbuzz(45)", fizzbuzz(45), 'FizzBuzz')


def test_6():
    check("fizzbuzz(20)", fizzbuzz(20), 'Buzz')


def test_7():
    check("fizzbuzz(56)", fizzbuzz(56), '56')


def test_8():
    check("fizzbuzz(31)", fizzbuzz(31), '31')


def test_9():
    check("fizzbuzz(39)", fizzbuzz(39), 'Fizz')


def test_10():
    check("fizzbuzz(10)", fizzbuzz(10), 'Buzz')


def test_11():
    check("fizzbuzz(47)", fizzbuzz(47), '47')


def test_12():
    check("fizzbuzz(32)", fizzbuzz(32), '32')


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
