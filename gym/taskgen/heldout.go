package taskgen

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// heldoutTemplates are the templates of the heldout family (datasets/bugfix-heldout): functions
// that appear in no split of datasets/bugfix, for evaluation on code never seen in training.
// Each fits TinyAgent's limits: at most 16 lines, at most 16 distinct names, and only the
// keywords, builtins and operators of gym.Vocab.
var heldoutTemplates = []template{
	{name: "longest_run", entry: "longest_run", source: `def longest_run(xs):
    if not xs: return 0
    best = 1
    cur = 1
    for i in range(1, len(xs)):
        if xs[i] == xs[i - 1]:
            cur += 1
        else:
            cur = 1
        if cur > best:
            best = cur
    return best
`, edge: []string{"[]", "[4]", "[1, 1]", "[1, 2]", "[1, 1, 2, 2, 2]", "[3, 3, 3, 1]", "[1, 2, 2, 3]"},
		random: func(r *rand.Rand) string { return ints(r, 1+r.IntN(8), 0, 2) }},
	{name: "balanced_parens", entry: "balanced_parens", source: `def balanced_parens(s):
    depth = 0
    for c in s:
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0
`, edge: []string{`""`, `"()"`, `")("`, `"(()"`, `"())"`, `"(())()"`, `"a(b)c"`},
		random: func(r *rand.Rand) string { return word(r, r.IntN(9), "(()))x") }},
	{name: "shift_letters", entry: "shift_letters", source: `def shift_letters(text, k):
    letters = "abcdefghijklmnopqrstuvwxyz"
    out = []
    for c in text:
        i = letters.find(c)
        if i == -1:
            out.append(c)
        else:
            out.append(letters[(i + k) % 26])
    return "".join(out)
`, edge: []string{`"abc", 1`, `"xyz", 3`, `"hello", 0`, `"a b", 2`, `"zz", 27`, `"", 5`, `"abc", -1`},
		random: func(r *rand.Rand) string {
			return fmt.Sprintf("%s, %d", word(r, 1+r.IntN(6), "abcxyz -"), r.IntN(60)-20)
		}},
	{name: "to_binary", entry: "to_binary", source: `def to_binary(n):
    if n == 0: return "0"
    sign = ""
    if n < 0:
        sign = "-"
        n = -n
    digits = []
    while n > 0:
        digits.append(str(n % 2))
        n //= 2
    digits.reverse()
    return sign + "".join(digits)
`, edge: []string{"0", "1", "2", "5", "-6", "8", "255", "-1"},
		random: func(r *rand.Rand) string { return fmt.Sprint(r.IntN(600) - 200) }},
	{name: "majority", entry: "majority", source: `def majority(xs):
    cand = None
    count = 0
    for x in xs:
        if count == 0:
            cand = x
        if x == cand:
            count += 1
        else:
            count -= 1
    total = 0
    for x in xs:
        if x == cand:
            total += 1
    if total * 2 > len(xs): return cand
    return None
`, edge: []string{"[]", "[1]", "[1, 2]", "[2, 2, 1]", "[1, 2, 1, 2]", "[3, 1, 3, 2, 3]", "[1, 1, 2, 2, 2]"},
		random: func(r *rand.Rand) string { return ints(r, 1+r.IntN(7), 1, 3) }},
	{name: "interleave", entry: "interleave", source: `def interleave(a, b):
    out = []
    n = min(len(a), len(b))
    for i in range(n):
        out.append(a[i])
        out.append(b[i])
    out.extend(a[n:])
    out.extend(b[n:])
    return out
`, edge: []string{"[], []", "[1], []", "[], [2]", "[1, 3], [2, 4]", "[1, 2, 3], [9]", "[7], [8, 9, 10]"},
		random: func(r *rand.Rand) string {
			return fmt.Sprintf("%s, %s", ints(r, r.IntN(5), 0, 9), ints(r, r.IntN(5), 10, 19))
		}},
	{name: "sum_multiples", entry: "sum_multiples", source: `def sum_multiples(limit, a, b):
    if a <= 0: return 0
    if b <= 0: return 0
    total = 0
    for x in range(1, limit):
        if x % a == 0 or x % b == 0:
            total += x
    return total
`, edge: []string{"10, 3, 5", "1, 3, 5", "16, 3, 5", "20, 0, 5", "12, 4, -1", "7, 7, 7", "30, 2, 3"},
		random: func(r *rand.Rand) string {
			return fmt.Sprintf("%d, %d, %d", r.IntN(40), r.IntN(8)-1, r.IntN(8)-1)
		}},
	{name: "histogram", entry: "histogram", source: `def histogram(xs, width, buckets):
    if width <= 0: return []
    counts = [0] * buckets
    for x in xs:
        b = x // width
        if b >= buckets:
            b = buckets - 1
        if b >= 0:
            counts[b] += 1
    return counts
`, edge: []string{"[], 2, 3", "[1, 2, 3], 0, 2", "[0, 1, 2, 3], 2, 2", "[5, 9, 20], 5, 3", "[-1, 0, 4], 2, 3", "[3, 3], 1, 4"},
		random: func(r *rand.Rand) string {
			return fmt.Sprintf("%s, %d, %d", ints(r, r.IntN(7), -2, 14), r.IntN(5)-1, 1+r.IntN(4))
		}},
	{name: "diagonal_sum", entry: "diagonal_sum", source: `def diagonal_sum(grid):
    n = len(grid)
    total = 0
    for i in range(n):
        total += grid[i][i]
        j = n - 1 - i
        if j != i:
            total += grid[i][j]
    return total
`, edge: []string{"[]", "[[5]]", "[[1, 2], [3, 4]]", "[[1, 2, 3], [4, 5, 6], [7, 8, 9]]", "[[1, 0, 0, 2], [0, 3, 4, 0], [0, 5, 6, 0], [7, 0, 0, 8]]"},
		random: func(r *rand.Rand) string {
			n := 1 + r.IntN(4)
			rows := make([]string, n)
			for i := range rows {
				rows[i] = ints(r, n, -3, 9)
			}
			return "[" + strings.Join(rows, ", ") + "]"
		}},
	{name: "collatz_steps", entry: "collatz_steps", source: `def collatz_steps(n):
    if n <= 0: return -1
    steps = 0
    while n > 1:
        if n % 2 == 0:
            n //= 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps
`, edge: []string{"0", "-3", "1", "2", "3", "6", "7", "27"},
		random: func(r *rand.Rand) string { return fmt.Sprint(r.IntN(60) - 5) }},
	{name: "longest_word", entry: "longest_word", source: `def longest_word(text):
    best = ""
    cur = ""
    for c in text + " ":
        if c == " ":
            if len(cur) > len(best):
                best = cur
            cur = ""
        else:
            cur = cur + c
    return best
`, edge: []string{`""`, `"a"`, `"ab c"`, `"a bc"`, `"ab cd"`, `"  x  "`, `"one three five"`},
		random: func(r *rand.Rand) string { return word(r, r.IntN(12), "ab  c") }},
	{name: "compress_ranges", entry: "compress_ranges", source: `def compress_ranges(xs):
    out = []
    i = 0
    while i < len(xs):
        j = i
        while j + 1 < len(xs) and xs[j + 1] == xs[j] + 1:
            j += 1
        if j > i:
            out.append(str(xs[i]) + "-" + str(xs[j]))
        else:
            out.append(str(xs[i]))
        i = j + 1
    return ",".join(out)
`, edge: []string{"[]", "[4]", "[1, 2]", "[1, 3]", "[1, 2, 3, 5]", "[0, 2, 3, 4, 7, 8]"},
		random: func(r *rand.Rand) string {
			out := []int{}
			v := r.IntN(5) - 1
			for range r.IntN(8) {
				v += 1 + r.IntN(2)*r.IntN(3)
				out = append(out, v)
			}
			return list(out)
		}},
	{name: "nearest_index", entry: "nearest_index", source: `def nearest_index(xs, target):
    best = -1
    for i in range(len(xs)):
        d = abs(xs[i] - target)
        if best == -1 or d < abs(xs[best] - target):
            best = i
    return best
`, edge: []string{"[], 3", "[5], 0", "[1, 4, 9], 5", "[1, 4, 9], 7", "[3, 7], 5", "[10, 2, 6], 1"},
		random: func(r *rand.Rand) string { return fmt.Sprintf("%s, %d", ints(r, r.IntN(6), -5, 15), r.IntN(20)-5) }},
	{name: "tennis_score", entry: "tennis_score", source: `def tennis_score(a, b):
    names = ["love", "15", "30", "40"]
    if a >= 3 and b >= 3:
        if a == b:
            return "deuce"
        if a - b == 1:
            return "advantage A"
        if b - a == 1:
            return "advantage B"
    if a >= 4 and a - b >= 2:
        return "game A"
    if b >= 4 and b - a >= 2:
        return "game B"
    return names[a] + "-" + names[b]
`, edge: []string{"0, 0", "1, 2", "3, 3", "4, 3", "3, 4", "5, 3", "4, 0", "2, 4", "3, 2", "6, 6"},
		random: func(r *rand.Rand) string { return fmt.Sprintf("%d, %d", r.IntN(8), r.IntN(8)) }},
	{name: "to_roman", entry: "to_roman", source: `def to_roman(n):
    values = [1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1]
    symbols = ["M", "CM", "D", "CD", "C", "XC", "L", "XL", "X", "IX", "V", "IV", "I"]
    out = ""
    for i in range(len(values)):
        while n >= values[i]:
            out += symbols[i]
            n -= values[i]
    return out
`, edge: []string{"1", "4", "9", "14", "40", "90", "400", "1994", "3999"},
		random: func(r *rand.Rand) string { return fmt.Sprint(1 + r.IntN(3999)) }},
	{name: "pascal_row", entry: "pascal_row", source: `def pascal_row(n):
    if n < 0: return []
    row = [1]
    for k in range(n):
        row.append(row[k] * (n - k) // (k + 1))
    return row
`, edge: []string{"-1", "0", "1", "2", "3", "4", "6"},
		random: func(r *rand.Rand) string { return fmt.Sprint(r.IntN(12) - 2) }},
	{name: "count_words", entry: "count_words", source: `def count_words(text):
    count = 0
    inside = False
    for c in text:
        if c == " ":
            inside = False
        elif not inside:
            inside = True
            count += 1
    return count
`, edge: []string{`""`, `" "`, `"a"`, `"a b"`, `"  ab  cd "`, `"abc"`},
		random: func(r *rand.Rand) string { return word(r, r.IntN(10), "ab  ") }},
	{name: "max_profit", entry: "max_profit", source: `def max_profit(prices, fee):
    if len(prices) < 2: return 0
    low = prices[0]
    best = 0
    for p in prices[1:]:
        if p - low - fee > best:
            best = p - low - fee
        if p < low:
            low = p
    return best
`, edge: []string{"[], 0", "[], 2", "[5], 1", "[1, 5], 0", "[1, 5], 1", "[5, 1], 0", "[7, 1, 5, 3, 6, 4], 2", "[3, 3, 3], 0", "[2, 9, 1, 4], 3"},
		random: func(r *rand.Rand) string { return fmt.Sprintf("%s, %d", ints(r, r.IntN(8), 0, 12), r.IntN(4)) }},
	{name: "count_primes", entry: "count_primes", source: `def is_prime(k):
    if k < 2: return False
    d = 2
    while d * d <= k:
        if k % d == 0:
            return False
        d += 1
    return True


def count_primes(n):
    count = 0
    for k in range(2, n + 1):
        if is_prime(k):
            count += 1
    return count
`, edge: []string{"0", "1", "2", "3", "4", "10", "25", "49"},
		random: func(r *rand.Rand) string { return fmt.Sprint(r.IntN(80) - 3) }},
	{name: "ticket_price", entry: "ticket_price", source: `def ticket_price(age, weekend):
    if age <= 0: return -1
    price = 12
    if age < 4:
        return 0
    if age < 13 or age >= 65:
        price = 7
    if weekend:
        price += 3
    return price
`, edge: []string{"-1, False", "0, True", "0, False", "3, False", "4, True", "12, False", "13, True", "64, False", "65, True", "30, False"},
		random: func(r *rand.Rand) string {
			ages := []int{-2, 0, 1, 3, 4, 12, 13, 64, 65, 66}
			a := r.IntN(80) - 2
			if r.IntN(2) == 0 {
				a = ages[r.IntN(len(ages))]
			}
			w := "False"
			if r.IntN(2) == 0 {
				w = "True"
			}
			return fmt.Sprintf("%d, %s", a, w)
		}},
	{name: "transpose", entry: "transpose", source: `def transpose(grid):
    if not grid: return []
    rows = len(grid)
    cols = len(grid[0])
    out = []
    for c in range(cols):
        col = []
        for r in range(rows):
            col.append(grid[r][c])
        out.append(col)
    return out
`, edge: []string{"[]", "[[1]]", "[[1, 2]]", "[[1], [2]]", "[[1, 2, 3], [4, 5, 6]]", "[[1, 2], [3, 4], [5, 6]]"},
		random: func(r *rand.Rand) string {
			n, m := 1+r.IntN(3), 1+r.IntN(3)
			rows := make([]string, n)
			for i := range rows {
				rows[i] = ints(r, m, 0, 9)
			}
			return "[" + strings.Join(rows, ", ") + "]"
		}},
	{name: "median", entry: "median", source: `def median(xs):
    if not xs: return None
    s = sorted(xs)
    n = len(s)
    mid = n // 2
    if n % 2 == 1:
        return s[mid]
    return (s[mid - 1] + s[mid]) / 2
`, edge: []string{"[]", "[4]", "[1, 3]", "[3, 1, 2]", "[4, 1, 3, 2]", "[5, 5, 1, 9, 7]"},
		random: func(r *rand.Rand) string { return ints(r, 1+r.IntN(7), -4, 12) }},
	{name: "word_score", entry: "word_score", source: `def word_score(word):
    one = "aeioulnrst"
    two = "dg"
    total = 0
    for c in word:
        if one.find(c) >= 0:
            total += 1
        elif two.find(c) >= 0:
            total += 2
        else:
            total += 3
    return total
`, edge: []string{`""`, `"a"`, `"d"`, `"z"`, `"dog"`, `"quiz"`, `"eagle"`},
		random: func(r *rand.Rand) string { return word(r, 1+r.IntN(7), "aedgzqt") }},
	{name: "reverse_digits", entry: "reverse_digits", source: `def reverse_digits(n):
    sign = 1
    if n < 0:
        sign = -1
        n = -n
    out = 0
    while n > 0:
        out = out * 10 + n % 10
        n //= 10
    return sign * out
`, edge: []string{"0", "5", "12", "-34", "100", "-907", "1234"},
		random: func(r *rand.Rand) string { return fmt.Sprint(r.IntN(20000) - 8000) }},
	{name: "parse_binary", entry: "parse_binary", source: `def parse_binary(s):
    if not s: return -1
    value = 0
    for c in s:
        if c != "0" and c != "1":
            return -1
        value = value * 2 + int(c)
    return value
`, edge: []string{`""`, `"0"`, `"1"`, `"10"`, `"111"`, `"102"`, `"x1"`, `"1001"`},
		random: func(r *rand.Rand) string { return word(r, 1+r.IntN(7), "0110102") }},
	{name: "make_change", entry: "make_change", source: `def make_change(amount):
    if amount <= 0: return []
    coins = [25, 10, 5, 1]
    counts = []
    for c in coins:
        counts.append(amount // c)
        amount = amount % c
    return counts
`, edge: []string{"-1", "0", "4", "5", "30", "99", "41"},
		random: func(r *rand.Rand) string { return fmt.Sprint(r.IntN(130) - 5) }},
	{name: "merge_intervals", entry: "merge_intervals", source: `def merge_intervals(pairs):
    out = []
    for lo, hi in sorted(pairs):
        if out and lo <= out[-1][1]:
            out[-1][1] = max(out[-1][1], hi)
        else:
            out.append([lo, hi])
    return out
`, edge: []string{"[]", "[[1, 2]]", "[[1, 3], [2, 5]]", "[[1, 2], [3, 4]]", "[[1, 2], [2, 3]]", "[[5, 6], [1, 9]]"},
		random: func(r *rand.Rand) string {
			n := r.IntN(5)
			parts := make([]string, n)
			for i := range parts {
				lo := r.IntN(12)
				parts[i] = fmt.Sprintf("[%d, %d]", lo, lo+r.IntN(4))
			}
			return "[" + strings.Join(parts, ", ") + "]"
		}},
	{name: "moving_sum", entry: "moving_sum", source: `def moving_sum(xs, k):
    if k <= 0: return []
    out = []
    total = 0
    for i in range(len(xs)):
        total += xs[i]
        if i >= k:
            total -= xs[i - k]
        if i >= k - 1:
            out.append(total)
    return out
`, edge: []string{"[1, 2, 3], 0", "[4, 5], -1", "[], 2", "[1, 2, 3], 1", "[1, 2, 3], 2", "[1, 2, 3], 3", "[1, 2], 3", "[5, -1, 4, 0], 2"},
		random: func(r *rand.Rand) string { return fmt.Sprintf("%s, %d", ints(r, r.IntN(7), -3, 9), r.IntN(6)-1) }},
	{name: "coin_ways", entry: "coin_ways", source: `def coin_ways(amount, coins):
    ways = [1] + [0] * amount
    for c in coins:
        for v in range(c, amount + 1):
            ways[v] += ways[v - c]
    return ways[amount]
`, edge: []string{"0, [1, 2]", "1, [1]", "4, [1, 2]", "5, [2, 3]", "3, [2]", "10, [5, 2, 3]", "7, []"},
		random: func(r *rand.Rand) string {
			var coins []int
			for c := 1; c <= 6; c++ {
				if r.IntN(3) == 0 {
					coins = append(coins, c)
				}
			}
			r.Shuffle(len(coins), func(i, j int) { coins[i], coins[j] = coins[j], coins[i] })
			return fmt.Sprintf("%d, %s", r.IntN(16), list(coins))
		}},
	{name: "first_missing", entry: "first_missing", source: `def first_missing(xs):
    seen = [False] * (len(xs) + 2)
    for x in xs:
        if 0 < x and x <= len(xs) + 1:
            seen[x] = True
    for i in range(1, len(seen)):
        if not seen[i]:
            return i
    return -1
`, edge: []string{"[]", "[1]", "[2]", "[1, 2, 3]", "[3, 4, -1, 1]", "[7, 8, 9]", "[2, 1, 4]"},
		random: func(r *rand.Rand) string { return ints(r, r.IntN(7), -2, 8) }},
}
