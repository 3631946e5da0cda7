"""Visible tests for fizzbuzz.py."""
from fizzbuzz import fizzbuzz


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("fizzbuzz(45)", fizzbuzz(45), 'FizzBuzz')


def test_2():
    check("fizzbuzz(39)", fizzbuzz(39), 'Fizz')


def test_3():
    check("fizzbuzz(5)", fizzbuzz(5), 'Buzz')


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
