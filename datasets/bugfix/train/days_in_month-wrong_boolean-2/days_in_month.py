def is_leap(year):
    return year % 4 == 0 or (year % 100 != 0 or year % 400 == 0)


def days_in_month(year, month):
    if month == 2:
        if is_leap(year):
            return 29
        return 28
    if month in (4, 6, 9, 11):
        return 30
    return 31
