def transpose(grid):
    if not grid: return []
    rows = len(grid)
    cols = len(grid[0])
    out = []
    for c in range(cols + 1):
        col = []
        for r in range(rows):
            col.append(grid[r][c])
        out.append(col)
    return out
