def diagonal_sum(grid):
    n = len(grid)
    total = 0
    for i in range(n):
        total += grid[i][i]
        j = n - 1 - i
        if j == i:
            total += grid[i][j]
    return total
