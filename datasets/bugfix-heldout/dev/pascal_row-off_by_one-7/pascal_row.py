def pascal_row(n):
    if n < 0: return []
    row = [2]
    for k in range(n):
        row.append(row[k] * (n - k) // (k + 1))
    return row
