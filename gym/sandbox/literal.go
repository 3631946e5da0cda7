package sandbox

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// kind is the Python type of a plain value.
type kind int

const (
	kNone kind = iota
	kBool
	kInt
	kFloat
	kStr
	kBytes
	kList
	kTuple
	kDict
	kSet // set and frozenset: they compare equal in Python
)

// value is a Python value made only of plain data: what a test file writes as a literal and
// what the code under test may return. The judge compares values here, in Go, so no method of an
// object the module made is ever called.
type value struct {
	kind  kind
	b     bool
	i     *big.Int
	f     float64
	s     string  // kStr (UTF-8) and kBytes (raw)
	items []value // kList, kTuple, kSet; dict keys for kDict
	vals  []value // dict values
}

// equal is Python's == on plain values: numbers compare by value across bool, int and float;
// list and tuple never equal each other; dicts and sets ignore order.
func equal(a, b value) bool {
	if a.isNumber() && b.isNumber() {
		return numEqual(a, b)
	}
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case kNone:
		return true
	case kStr, kBytes:
		return a.s == b.s
	case kList, kTuple:
		if len(a.items) != len(b.items) {
			return false
		}
		for i := range a.items {
			if !equal(a.items[i], b.items[i]) {
				return false
			}
		}
		return true
	case kSet:
		return len(a.items) == len(b.items) && containsAll(b.items, a.items)
	case kDict:
		if len(a.items) != len(b.items) {
			return false
		}
		for i, k := range a.items {
			j := index(b.items, k)
			if j < 0 || !equal(a.vals[i], b.vals[j]) {
				return false
			}
		}
		return true
	}
	return false
}

func index(xs []value, x value) int {
	for i, y := range xs {
		if equal(x, y) {
			return i
		}
	}
	return -1
}

func containsAll(xs, ys []value) bool {
	for _, y := range ys {
		if index(xs, y) < 0 {
			return false
		}
	}
	return true
}

func (v value) isNumber() bool { return v.kind == kBool || v.kind == kInt || v.kind == kFloat }

// asInt returns a bool or int as an integer.
func (v value) asInt() *big.Int {
	if v.kind == kBool {
		if v.b {
			return big.NewInt(1)
		}
		return big.NewInt(0)
	}
	return v.i
}

func numEqual(a, b value) bool {
	if a.kind != kFloat && b.kind != kFloat {
		return a.asInt().Cmp(b.asInt()) == 0
	}
	if a.kind == kFloat && b.kind == kFloat {
		return a.f == b.f
	}
	if b.kind == kFloat {
		a, b = b, a
	}
	// a is a float, b an integer: equal only if the float is that exact integer.
	if math.IsNaN(a.f) || math.IsInf(a.f, 0) || a.f != math.Trunc(a.f) {
		return false
	}
	fi, _ := big.NewFloat(a.f).Int(nil)
	return fi.Cmp(b.asInt()) == 0
}

// parseLiteral reads one Python literal: None, True, False, numbers (with a sign), strings and
// bytes (adjacent ones joined), lists, tuples, dicts, sets, set() and frozenset({...}). It also
// reads inf and nan, which is how Python writes those floats.
func parseLiteral(src string) (value, error) {
	p := &litParser{src: src}
	v, err := p.value()
	if err != nil {
		return value{}, err
	}
	p.space()
	if p.pos != len(p.src) {
		return value{}, p.errorf("unexpected %q after the value", p.rest(12))
	}
	return v, nil
}

type litParser struct {
	src string
	pos int
}

func (p *litParser) errorf(format string, a ...any) error {
	return fmt.Errorf("not a plain value at column %d: %s", p.pos+1, fmt.Sprintf(format, a...))
}

func (p *litParser) rest(n int) string {
	r := p.src[p.pos:]
	if len(r) > n {
		r = r[:n]
	}
	return r
}

func (p *litParser) space() {
	for p.pos < len(p.src) && strings.IndexByte(" \t\n\r", p.src[p.pos]) >= 0 {
		p.pos++
	}
}

func (p *litParser) peek() byte {
	p.space()
	if p.pos < len(p.src) {
		return p.src[p.pos]
	}
	return 0
}

func (p *litParser) eat(c byte) bool {
	if p.peek() == c {
		p.pos++
		return true
	}
	return false
}

// maxDepth bounds nesting, so that a hostile value cannot exhaust the judge's stack.
const maxDepth = 100

func (p *litParser) value() (value, error) { return p.nested(0) }

func (p *litParser) nested(depth int) (value, error) {
	if depth > maxDepth {
		return value{}, p.errorf("nested more than %d deep", maxDepth)
	}
	c := p.peek()
	switch {
	case c == 0:
		return value{}, p.errorf("missing value")
	case c == '[':
		p.pos++
		items, _, err := p.seq(']', depth)
		return value{kind: kList, items: items}, err
	case c == '(':
		p.pos++
		items, comma, err := p.seq(')', depth)
		if err == nil && len(items) == 1 && !comma {
			return items[0], nil // parentheses around one value
		}
		return value{kind: kTuple, items: items}, err
	case c == '{':
		p.pos++
		return p.braces(depth)
	case c == '-' || c == '+':
		p.pos++
		v, err := p.nested(depth + 1)
		if err != nil {
			return v, err
		}
		if !v.isNumber() {
			return value{}, p.errorf("sign before a non-number")
		}
		if c == '-' {
			switch v.kind {
			case kFloat:
				v.f = -v.f
			default:
				v = value{kind: kInt, i: new(big.Int).Neg(v.asInt())}
			}
		}
		return v, nil
	case c == '.' || (c >= '0' && c <= '9'):
		return p.number()
	case c == '\'' || c == '"':
		return p.strings()
	}
	start := p.pos
	for p.pos < len(p.src) && (isIdent(p.src[p.pos]) || p.src[p.pos] >= 0x80) {
		p.pos++
	}
	word := p.src[start:p.pos]
	if p.pos < len(p.src) && (p.src[p.pos] == '\'' || p.src[p.pos] == '"') && len(word) <= 2 {
		p.pos = start
		return p.strings()
	}
	switch word {
	case "None":
		return value{kind: kNone}, nil
	case "True", "False":
		return value{kind: kBool, b: word == "True"}, nil
	case "inf":
		return value{kind: kFloat, f: math.Inf(1)}, nil
	case "nan":
		return value{kind: kFloat, f: math.NaN()}, nil
	case "set", "frozenset":
		if !p.eat('(') {
			return value{}, p.errorf("%s without (", word)
		}
		if p.eat(')') {
			return value{kind: kSet}, nil
		}
		if !p.eat('{') {
			return value{}, p.errorf("%s( takes a set literal here", word)
		}
		v, err := p.braces(depth)
		if err != nil {
			return v, err
		}
		if v.kind != kSet || !p.eat(')') {
			return value{}, p.errorf("%s( takes a set literal here", word)
		}
		return v, nil
	}
	p.pos = start
	return value{}, p.errorf("unexpected %q", p.rest(12))
}

func isIdent(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

// seq reads comma-separated values up to end; comma reports a trailing or separating comma.
func (p *litParser) seq(end byte, depth int) (items []value, comma bool, err error) {
	for {
		if p.eat(end) {
			return items, comma, nil
		}
		if len(items) > 0 && !comma {
			return nil, false, p.errorf("expected , or %c", end)
		}
		v, err := p.nested(depth + 1)
		if err != nil {
			return nil, false, err
		}
		items = append(items, v)
		comma = p.eat(',')
	}
}

// braces reads a dict or a set after its {.
func (p *litParser) braces(depth int) (value, error) {
	if p.eat('}') {
		return value{kind: kDict}, nil
	}
	first, err := p.nested(depth + 1)
	if err != nil {
		return first, err
	}
	if !p.eat(':') {
		items := []value{first}
		if p.eat(',') {
			more, _, err := p.seq('}', depth)
			if err != nil {
				return value{}, err
			}
			items = append(items, more...)
		} else if !p.eat('}') {
			return value{}, p.errorf("expected , or }")
		}
		var set []value
		for _, it := range items {
			if index(set, it) < 0 {
				set = append(set, it)
			}
		}
		return value{kind: kSet, items: set}, nil
	}
	d := value{kind: kDict}
	k := first
	for {
		v, err := p.nested(depth + 1)
		if err != nil {
			return value{}, err
		}
		// A later equal key replaces the value, as in Python.
		if j := index(d.items, k); j >= 0 {
			d.vals[j] = v
		} else {
			d.items, d.vals = append(d.items, k), append(d.vals, v)
		}
		comma := p.eat(',')
		if p.eat('}') {
			return d, nil
		}
		if !comma {
			return value{}, p.errorf("expected , or }")
		}
		if k, err = p.nested(depth + 1); err != nil {
			return value{}, err
		}
		if !p.eat(':') {
			return value{}, p.errorf("expected :")
		}
	}
}

func (p *litParser) number() (value, error) {
	start := p.pos
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		if isIdent(c) || c == '.' || ((c == '-' || c == '+') && (p.src[p.pos-1] == 'e' || p.src[p.pos-1] == 'E') &&
			!strings.ContainsAny(p.src[start:p.pos], "xXbBoO")) {
			p.pos++
			continue
		}
		break
	}
	text := strings.ReplaceAll(p.src[start:p.pos], "_", "")
	isInt := !strings.ContainsAny(text, ".eEjJ") || strings.HasPrefix(strings.ToLower(text), "0x")
	if isInt {
		i, ok := new(big.Int).SetString(text, 0)
		if !ok {
			return value{}, p.errorf("bad integer %q", text)
		}
		return value{kind: kInt, i: i}, nil
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil && !strings.Contains(err.Error(), "range") {
		return value{}, p.errorf("bad number %q", text)
	}
	return value{kind: kFloat, f: f}, nil
}

// strings reads one or more adjacent string literals (all str or all bytes) and joins them.
func (p *litParser) strings() (value, error) {
	var out strings.Builder
	k := kind(-1)
	for {
		p.space()
		start := p.pos
		for p.pos < len(p.src) && isIdent(p.src[p.pos]) {
			p.pos++
		}
		prefix := strings.ToLower(p.src[start:p.pos])
		if p.pos >= len(p.src) || (p.src[p.pos] != '\'' && p.src[p.pos] != '"') || strings.Trim(prefix, "rbu") != "" {
			p.pos = start
			if k < 0 {
				return value{}, p.errorf("unexpected %q", p.rest(12))
			}
			return value{kind: k, s: out.String()}, nil
		}
		sk := kStr
		if strings.Contains(prefix, "b") {
			sk = kBytes
		}
		if k >= 0 && sk != k {
			return value{}, p.errorf("str and bytes joined")
		}
		k = sk
		s, err := p.quoted(strings.Contains(prefix, "r"), sk == kBytes)
		if err != nil {
			return value{}, err
		}
		out.WriteString(s)
	}
}

// quoted reads one quoted literal at p.pos and returns its content.
func (p *litParser) quoted(raw, bytes bool) (string, error) {
	q := p.src[p.pos : p.pos+1]
	if strings.HasPrefix(p.src[p.pos:], q+q+q) {
		q = q + q + q
	}
	p.pos += len(q)
	var b strings.Builder
	for {
		if p.pos >= len(p.src) {
			return "", p.errorf("unterminated string")
		}
		if strings.HasPrefix(p.src[p.pos:], q) {
			p.pos += len(q)
			return b.String(), nil
		}
		c := p.src[p.pos]
		if c == '\n' && len(q) == 1 {
			return "", p.errorf("newline in string")
		}
		if c != '\\' || raw {
			if raw && c == '\\' && p.pos+1 < len(p.src) {
				b.WriteString(p.src[p.pos : p.pos+2])
				p.pos += 2
				continue
			}
			b.WriteByte(c)
			p.pos++
			continue
		}
		if p.pos+1 >= len(p.src) {
			return "", p.errorf("unterminated string")
		}
		e := p.src[p.pos+1]
		p.pos += 2
		switch e {
		case '\n':
		case '\\', '\'', '"':
			b.WriteByte(e)
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case '0', '1', '2', '3', '4', '5', '6', '7':
			n := int(e - '0')
			for k := 0; k < 2 && p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '7'; k++ {
				n = n*8 + int(p.src[p.pos]-'0')
				p.pos++
			}
			p.put(&b, n, bytes)
		case 'x', 'u', 'U':
			w := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			if bytes && e != 'x' {
				b.WriteString("\\" + string(e))
				continue
			}
			if p.pos+w > len(p.src) {
				return "", p.errorf("truncated \\%c escape", e)
			}
			n, err := strconv.ParseUint(p.src[p.pos:p.pos+w], 16, 32)
			if err != nil || n > utf8.MaxRune {
				return "", p.errorf("bad \\%c escape", e)
			}
			p.pos += w
			p.put(&b, int(n), bytes)
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
}

// put writes code point (str) or byte (bytes) n.
func (p *litParser) put(b *strings.Builder, n int, bytes bool) {
	if bytes {
		b.WriteByte(byte(n))
		return
	}
	b.WriteRune(rune(n))
}
