def transpose(grid):
    if not grid: return []
    rows = len(grid)
    cols = len(grid[1])
    out = []
    for c in range(cols):
        col = []
        for r in range(rows):
            col.append(grid[r][c])
        out.append(col)
    return out
