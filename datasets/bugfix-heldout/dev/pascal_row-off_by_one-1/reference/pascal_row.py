def pascal_row(n):
    if n < 0: return []
    row = [1]
    for k in range(n):
        row.append(row[k] * (n - k) // (k + 1))
    return row
