"""Visible tests for ticket_price.py."""
from ticket_price import ticket_price


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("ticket_price(43, False)", ticket_price(43, False), 12)


def test_2():
    check("ticket_price(65, False)", ticket_price(65, False), 7)


def test_3():
    check("ticket_price(65, True)", ticket_price(65, True), 10)


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
