package taskgen

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// template is one correct Python function (with helpers) that bugs are made from.
type template struct {
	name   string   // also the module name: never the name of a standard-library module
	entry  string   // the function the tests call
	source string   // the correct module
	edge   []string // hand-picked argument lists, as Python call arguments
	random func(r *rand.Rand) string
}

func ints(r *rand.Rand, n, lo, hi int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprint(lo + r.IntN(hi-lo+1))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func sortedDistinct(r *rand.Rand, n int) []int {
	out := []int{}
	v := r.IntN(5) - 2
	for range n {
		v += 1 + r.IntN(4)
		out = append(out, v)
	}
	return out
}

func list(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprint(x)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func word(r *rand.Rand, n int, alphabet string) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[r.IntN(len(alphabet))]
	}
	return fmt.Sprintf("%q", string(b))
}

var templates = []template{
	{name: "clamp", entry: "clamp", source: `def clamp(x, lo, hi):
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x
`, edge: []string{"5, 0, 3", "-1, 0, 3", "0, 0, 3", "3, 0, 3", "2, 2, 2"},
		random: func(r *rand.Rand) string {
			lo := r.IntN(10) - 5
			return fmt.Sprintf("%d, %d, %d", r.IntN(30)-15, lo, lo+r.IntN(8))
		}},
	{name: "count_in_range", entry: "count_in_range", source: `def count_in_range(xs, lo, hi):
    count = 0
    for x in xs:
        if lo <= x and x < hi:
            count += 1
    return count
`, edge: []string{"[], 0, 5", "[1, 2, 3], 1, 3", "[5, 5, 5], 5, 6", "[0, 10], 0, 10"},
		random: func(r *rand.Rand) string {
			lo := r.IntN(6)
			return fmt.Sprintf("%s, %d, %d", ints(r, 2+r.IntN(6), 0, 10), lo, lo+r.IntN(6))
		}},
	{name: "index_of_max", entry: "index_of_max", source: `def index_of_max(xs):
    if not xs: return -1
    best = 0
    for i in range(1, len(xs)):
        if xs[i] > xs[best]:
            best = i
    return best
`, edge: []string{"[]", "[7]", "[1, 3, 2]", "[4, 4, 1]", "[1, 2, 9]", "[9, 2, 1]"},
		random: func(r *rand.Rand) string { return ints(r, 1+r.IntN(7), -5, 9) }},
	{name: "binary_search", entry: "binary_search", source: `def binary_search(xs, target):
    lo = 0
    hi = len(xs) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        if xs[mid] == target:
            return mid
        if xs[mid] < target:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1
`, edge: []string{"[], 3", "[3], 3", "[1, 3, 5], 5", "[1, 3, 5], 1", "[1, 3, 5], 4", "[1, 3, 5, 7], 7"},
		random: func(r *rand.Rand) string {
			xs := sortedDistinct(r, 1+r.IntN(8))
			t := xs[r.IntN(len(xs))]
			if r.IntN(3) == 0 {
				t = xs[0] - 1 + r.IntN(xs[len(xs)-1]-xs[0]+3)
			}
			return fmt.Sprintf("%s, %d", list(xs), t)
		}},
	{name: "is_palindrome", entry: "is_palindrome", source: `def is_palindrome(s):
    i = 0
    j = len(s) - 1
    while i < j:
        if s[i] != s[j]:
            return False
        i += 1
        j -= 1
    return True
`, edge: []string{`""`, `"a"`, `"aa"`, `"ab"`, `"aba"`, `"abca"`, `"abcba"`},
		random: func(r *rand.Rand) string {
			s := word(r, 1+r.IntN(5), "ab")
			if r.IntN(2) == 0 {
				w := s[1 : len(s)-1]
				rev := []byte(w)
				for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
					rev[i], rev[j] = rev[j], rev[i]
				}
				return fmt.Sprintf("%q", w+string(rev[r.IntN(2):]))
			}
			return s
		}},
	{name: "fizzbuzz", entry: "fizzbuzz", source: `def fizzbuzz(n):
    if n % 3 == 0 and n % 5 == 0:
        return "FizzBuzz"
    if n % 3 == 0:
        return "Fizz"
    if n % 5 == 0:
        return "Buzz"
    return str(n)
`, edge: []string{"1", "3", "5", "15", "30", "7", "9", "10"},
		random: func(r *rand.Rand) string { return fmt.Sprint(1 + r.IntN(60)) }},
	{name: "digit_sum", entry: "digit_sum", source: `def digit_sum(n):
    if n < 0:
        n = -n
    total = 0
    while n > 0:
        total += n % 10
        n //= 10
    return total
`, edge: []string{"0", "7", "10", "-45", "999", "1001"},
		random: func(r *rand.Rand) string { return fmt.Sprint(r.IntN(20000) - 5000) }},
	{name: "merge_sorted", entry: "merge_sorted", source: `def merge_sorted(a, b):
    out = []
    i = 0
    j = 0
    while i < len(a) and j < len(b):
        if a[i] <= b[j]:
            out.append(a[i])
            i += 1
        else:
            out.append(b[j])
            j += 1
    out.extend(a[i:])
    out.extend(b[j:])
    return out
`, edge: []string{"[], []", "[1], []", "[], [2]", "[1, 3], [2, 4]", "[1, 2], [1, 2]", "[5, 6], [1, 2]"},
		random: func(r *rand.Rand) string {
			return fmt.Sprintf("%s, %s", list(sortedDistinct(r, r.IntN(5))), list(sortedDistinct(r, r.IntN(5))))
		}},
	{name: "second_largest", entry: "second_largest", source: `def second_largest(xs):
    if len(xs) < 2: return None
    first = None
    second = None
    for x in xs:
        if first is None or x > first:
            second = first
            first = x
        elif x != first and (second is None or x > second):
            second = x
    return second
`, edge: []string{"[]", "[1]", "[1, 2]", "[2, 1]", "[3, 3]", "[1, 5, 3, 4]", "[5, 5, 4]"},
		random: func(r *rand.Rand) string { return ints(r, 1+r.IntN(6), 0, 9) }},
	{name: "lcm", entry: "lcm", source: `def gcd(a, b):
    while b != 0:
        a, b = b, a % b
    return a


def lcm(a, b):
    if a == 0 or b == 0:
        return 0
    return a // gcd(a, b) * b
`, edge: []string{"0, 5", "4, 0", "4, 6", "3, 5", "7, 7", "12, 18", "1, 9"},
		random: func(r *rand.Rand) string { return fmt.Sprintf("%d, %d", r.IntN(30), r.IntN(30)) }},
	{name: "fast_pow", entry: "fast_pow", source: `def fast_pow(base, exp):
    result = 1
    while exp > 0:
        if exp % 2 == 1:
            result *= base
        base *= base
        exp //= 2
    return result
`, edge: []string{"2, 0", "2, 1", "2, 10", "3, 5", "0, 3", "-2, 3", "1, 7"},
		random: func(r *rand.Rand) string { return fmt.Sprintf("%d, %d", r.IntN(9)-3, r.IntN(12)) }},
	{name: "chunks", entry: "chunks", source: `def chunks(xs, size):
    if size <= 0: return []
    out = []
    for i in range(0, len(xs), size):
        out.append(xs[i:i + size])
    return out
`, edge: []string{"[1, 2, 3], 0", "[], 2", "[1, 2, 3], 1", "[1, 2, 3, 4], 2", "[1, 2, 3], 2", "[1, 2], 5"},
		random: func(r *rand.Rand) string { return fmt.Sprintf("%s, %d", ints(r, r.IntN(8), 0, 9), r.IntN(5)-1) }},
	{name: "rotate", entry: "rotate", source: `def rotate(xs, k):
    if not xs: return []
    n = len(xs)
    k = k % n
    left = xs[n - k:]
    right = xs[:n - k]
    return left + right
`, edge: []string{"[], 3", "[], 0", "[], -2", "[1, 2, 3], 0", "[1, 2, 3], 1", "[1, 2, 3], 3", "[1, 2, 3, 4], 6", "[1, 2], -1"},
		random: func(r *rand.Rand) string { return fmt.Sprintf("%s, %d", ints(r, r.IntN(7), 0, 9), r.IntN(12)-3) }},
	{name: "run_length", entry: "run_length", source: `def run_length(s):
    out = []
    count = 0
    for i in range(len(s)):
        count += 1
        if i + 1 == len(s) or s[i] != s[i + 1]:
            out.append(s[i] + str(count))
            count = 0
    return "".join(out)
`, edge: []string{`""`, `"a"`, `"aaa"`, `"ab"`, `"aabccc"`, `"abba"`},
		random: func(r *rand.Rand) string { return word(r, 1+r.IntN(8), "aab") }},
	{name: "pair_count", entry: "pair_count", source: `def pair_count(xs, target):
    count = 0
    for i in range(len(xs)):
        for j in range(i + 1, len(xs)):
            if xs[i] + xs[j] == target:
                count += 1
    return count
`, edge: []string{"[], 4", "[2, 2], 4", "[1, 3, 2, 2], 4", "[4], 4", "[0, 0, 0], 0"},
		random: func(r *rand.Rand) string { return fmt.Sprintf("%s, %d", ints(r, r.IntN(7), 0, 6), r.IntN(10)) }},
	{name: "triangle", entry: "triangle", source: `def triangle(a, b, c):
    if a <= 0 or b <= 0 or c <= 0:
        return "invalid"
    if a + b <= c or a + c <= b or b + c <= a:
        return "invalid"
    if a == b and b == c:
        return "equilateral"
    if a == b or b == c or a == c:
        return "isosceles"
    return "scalene"
`, edge: []string{"0, 1, 1", "1, 1, 1", "2, 2, 3", "3, 2, 2", "2, 3, 2", "3, 4, 5", "1, 2, 3", "1, 1, 5", "-1, 2, 2"},
		random: func(r *rand.Rand) string { return fmt.Sprintf("%d, %d, %d", r.IntN(7), r.IntN(7), r.IntN(7)) }},
	{name: "days_in_month", entry: "days_in_month", source: `def is_leap(year):
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def days_in_month(year, month):
    if month == 2:
        if is_leap(year):
            return 29
        return 28
    if month in (4, 6, 9, 11):
        return 30
    return 31
`, edge: []string{"2024, 2", "2023, 2", "1900, 2", "2000, 2", "2023, 4", "2023, 1", "2023, 12"},
		random: func(r *rand.Rand) string {
			years := []int{1600, 1700, 1800, 1900, 2000, 2100}
			y := 1890 + r.IntN(250)
			if r.IntN(3) == 0 {
				y = years[r.IntN(len(years))]
			}
			m := 1 + r.IntN(12)
			if r.IntN(2) == 0 {
				m = 2
			}
			return fmt.Sprintf("%d, %d", y, m)
		}},
	{name: "max_window_sum", entry: "max_window_sum", source: `def max_window_sum(xs, k):
    if k <= 0: return None
    best = None
    for i in range(len(xs) - k + 1):
        total = sum(xs[i:i + k])
        if best is None or total > best:
            best = total
    return best
`, edge: []string{"[1, 2, 3], 0", "[4], 0", "[1, 2, 3], 1", "[1, 2, 3], 3", "[1, 2, 3], 4", "[5, -1, 4], 2", "[-3, -1, -2], 2"},
		random: func(r *rand.Rand) string { return fmt.Sprintf("%s, %d", ints(r, 1+r.IntN(7), -5, 9), r.IntN(5)) }},
	{name: "insert_sorted", entry: "insert_sorted", source: `def insert_sorted(xs, x):
    out = list(xs)
    i = 0
    while i < len(out) and out[i] < x:
        i += 1
    out.insert(i, x)
    return out
`, edge: []string{"[], 1", "[1, 3], 2", "[1, 3], 0", "[1, 3], 5", "[2, 2], 2", "[1, 2, 3], 3"},
		random: func(r *rand.Rand) string {
			return fmt.Sprintf("%s, %d", list(sortedDistinct(r, r.IntN(6))), r.IntN(14)-3)
		}},
	{name: "percent_of", entry: "percent_of", source: `def percent_of(part, whole):
    if whole <= 0: return 0
    value = part * 100 // whole
    if value > 100:
        return 100
    return value
`, edge: []string{"1, 0", "5, 0", "1, 4", "3, 4", "5, 4", "0, 7", "7, 7"},
		random: func(r *rand.Rand) string { return fmt.Sprintf("%d, %d", r.IntN(12), r.IntN(12)-1) }},
	{name: "top_k", entry: "top_k", source: `def top_k(xs, k):
    if k <= 0: return []
    ordered = sorted(xs)
    ordered.reverse()
    return ordered[:k]
`, edge: []string{"[3, 1, 2], 0", "[3, 1, 2], -1", "[3, 1, 2], 2", "[], 2", "[5, 5, 1], 1", "[1, 2], 5"},
		random: func(r *rand.Rand) string { return fmt.Sprintf("%s, %d", ints(r, r.IntN(6), 0, 9), r.IntN(6)-2) }},
	{name: "count_occurrences", entry: "count_occurrences", source: `def count_occurrences(text, sub):
    if not sub: return 0
    count = 0
    i = text.find(sub, 0)
    while i != -1:
        count += 1
        i = text.find(sub, i + len(sub))
    return count
`, edge: []string{`"", "a"`, `"aaa", "a"`, `"aaaa", "aa"`, `"abab", "ab"`, `"abc", "d"`, `"ab", ""`},
		random: func(r *rand.Rand) string {
			return fmt.Sprintf("%s, %s", word(r, r.IntN(9), "ab"), word(r, 1+r.IntN(2), "ab"))
		}},
	{name: "clock", entry: "clock", source: `def clock(seconds):
    minutes, secs = divmod(seconds, 60)
    hours, minutes = divmod(minutes, 60)
    hours = hours % 24
    return "%02d:%02d:%02d" % (hours, minutes, secs)
`, edge: []string{"0", "59", "60", "3599", "3600", "86399", "86400", "90061"},
		random: func(r *rand.Rand) string { return fmt.Sprint(r.IntN(200000)) }},
	{name: "last_n", entry: "last_n", source: `def last_n(xs, n):
    if n <= 0: return []
    if n >= len(xs):
        return list(xs)
    start = len(xs) - n
    return xs[start:]
`, edge: []string{"[1, 2, 3], 0", "[4, 5], 0", "[1, 2, 3], -1", "[1, 2, 3], 1", "[1, 2, 3], 3", "[1, 2], 5", "[], 2"},
		random: func(r *rand.Rand) string { return fmt.Sprintf("%s, %d", ints(r, r.IntN(7), 0, 9), r.IntN(9)-2) }},
	{name: "every_kth", entry: "every_kth", source: `def every_kth(xs, k):
    if k <= 0: return []
    out = []
    for i in range(k - 1, len(xs), k):
        out.append(xs[i])
    return out
`, edge: []string{"[1, 2, 3], 0", "[5, 6, 7, 8], 0", "[1, 2, 3], 1", "[1, 2, 3, 4], 2", "[1, 2, 3], 3", "[1, 2], 5", "[], 1"},
		random: func(r *rand.Rand) string { return fmt.Sprintf("%s, %d", ints(r, r.IntN(9), 0, 9), r.IntN(5)) }},
}
