def ticket_price(age, weekend):
    if age <= 0: return -1
    price = 12
    if age < 4:
        return 0
    if age < 13 or age >= 65:
        price = 7
    if weekend:
        price += 3
    return price
