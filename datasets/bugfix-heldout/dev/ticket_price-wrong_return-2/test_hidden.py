"""Hidden tests for ticket_price.py: never shown to the agent."""
from ticket_price import ticket_price


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    check("ticket_price(-1, False)", ticket_price(-1, False), -1)


def test_2():
    check("ticket_price(72, True)", ticket_price(72, True), 10)


def test_3():
    check("ticket_price(3, False)", ticket_price(3, False), 0)


def test_4():
    check("ticket_price(4, True)", ticket_price(4, True), 10)


def test_5():
    check("ticket_price(43, False)", ticket_price(43, False), 12)


def test_6():
    check("ticket_price(40, False)", ticket_price(40, False), 12)


def test_7():
    check("ticket_price(0, True)", ticket_price(0, True), -1)


def test_8():
    check("ticket_price(2, True)", ticket_price(2, True), 0)


def test_9():
    check("ticket_price(-2, True)", ticket_price(-2, True), -1)


def test_10():
    check("ticket_price(-2, False)", ticket_price(-2, False), -1)


def test_11():
    check("ticket_price(1, True)", ticket_price(1, True), 0)


def test_12():
    check("ticket_price(0, False)", ticket_price(0, False), -1)


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
