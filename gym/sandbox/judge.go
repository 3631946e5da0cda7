package sandbox

import (
	"fmt"
	"strings"
)

// A test file is read by the judge, never executed. It is Python, and it runs as Python does
// (the gym's test files have a __main__ block for a reader to try), but the verdict comes from
// what the judge reads in it: every top-level function whose name starts with "test" is a test,
// and each statement of its body is one of
//
//	check(DESCRIPTION, FUNC(ARGS), WANT)   # the gym's generated form
//	assert FUNC(ARGS) == WANT
//	pass
//
// where ARGS and WANT are Python literals (plain data). Everything else at top level (imports,
// the check helper, a __main__ block) is ignored, and a test with any other statement fails with
// a message that says so. The worker calls FUNC(*ARGS) in the module and sends the result back as
// plain data; the judge compares it with WANT here, in Go.

// call is one call a test makes and the value it expects.
type call struct {
	desc string // how messages show the call, e.g. "clamp(5, 0, 3)"
	fn   string // the module's function
	args string // the literal arguments as written between the parentheses
	want value
	// wantText is WANT as written: the gym's test files write the repr of the expected value,
	// so messages read as they would from Python.
	wantText string
}

// testSpec is one test function as the judge reads it.
type testSpec struct {
	name  string
	calls []call
	bad   string // a statement the judge cannot read; the test fails with it
}

// readTests reads the tests of a test file. An error means the file cannot be read at all (an
// unterminated bracket or string): the run's status is then StatusTestsError.
func readTests(src, file string) ([]testSpec, error) {
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	var tests []testSpec
	pos := map[string]int{} // a test defined twice keeps its first place and its last body
	var cur *testSpec
	for i := 0; i < len(lines); i++ {
		stmt, next, err := logicalLine(lines, i)
		if err != nil {
			return nil, fmt.Errorf("%s line %d: %v", file, i+1, err)
		}
		lineNo := i + 1
		i = next
		trimmed := strings.TrimSpace(stmt)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		if stmt[0] != ' ' && stmt[0] != '\t' {
			cur = nil
			if name, plain, inline, ok := testDef(trimmed); ok {
				if j, seen := pos[name]; seen {
					tests[j] = testSpec{name: name}
					cur = &tests[j]
				} else {
					pos[name] = len(tests)
					tests = append(tests, testSpec{name: name})
					cur = &tests[len(tests)-1]
				}
				if !plain {
					cur.bad = fmt.Sprintf("%s line %d: the judge reads test functions without parameters", file, lineNo)
				}
				if inline != "" {
					cur.read(inline, file, lineNo)
				}
			}
			continue
		}
		if cur != nil {
			cur.read(trimmed, file, lineNo)
		}
	}
	return tests, nil
}

// read adds one statement of the test's body.
func (t *testSpec) read(stmt, file string, lineNo int) {
	if t.bad != "" || strings.HasPrefix(stmt, "#") || isDocstring(stmt) || stmt == "pass" {
		return
	}
	c, err := readStatement(stmt)
	if err != nil {
		t.bad = fmt.Sprintf("%s line %d: the judge reads only check(description, f(args), want), "+
			"assert f(args) == want and pass, with literal args and want: %v", file, lineNo, err)
		return
	}
	t.calls = append(t.calls, c)
}

// testDef recognizes "def test...(...):" and returns the test's name, whether it takes no
// parameters (the only tests the judge can run) and a statement written on the same line.
func testDef(s string) (name string, plain bool, inline string, ok bool) {
	rest, ok := strings.CutPrefix(s, "def ")
	if !ok {
		return "", false, "", false
	}
	name, params, ok := strings.Cut(strings.TrimSpace(rest), "(")
	name = strings.TrimSpace(name)
	if !ok || !strings.HasPrefix(name, "test") {
		return "", false, "", false
	}
	head, inline, _ := strings.Cut(params, ":")
	head = strings.ReplaceAll(head, " ", "")
	return name, head == ")" || head == ")->None", strings.TrimSpace(inline), true
}

func isDocstring(s string) bool {
	v, err := parseLiteral(s)
	return err == nil && v.kind == kStr
}

// logicalLine joins line i with the lines that continue it (open brackets, open triple-quoted
// strings, a trailing backslash) and returns the joined text and the index of its last line.
func logicalLine(lines []string, i int) (string, int, error) {
	var b strings.Builder
	depth := 0
	quote := ""
	for j := i; j < len(lines); j++ {
		line := lines[j]
		if j > i {
			b.WriteByte('\n')
		}
		b.WriteString(line)
		for k := 0; k < len(line); k++ {
			c := line[k]
			if quote != "" {
				switch {
				case c == '\\':
					k++
				case strings.HasPrefix(line[k:], quote):
					k += len(quote) - 1
					quote = ""
				}
				continue
			}
			switch c {
			case '#':
				k = len(line)
			case '\'', '"':
				quote = line[k : k+1]
				if strings.HasPrefix(line[k:], quote+quote+quote) {
					quote += quote + quote
					k += 2
				}
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth--
			}
		}
		if len(quote) == 1 {
			return "", j, fmt.Errorf("unterminated string")
		}
		if depth <= 0 && quote == "" && !strings.HasSuffix(line, "\\") {
			return b.String(), j, nil
		}
	}
	return "", len(lines) - 1, fmt.Errorf("unclosed bracket or string")
}

// readStatement reads one check(...) or assert statement of a test.
func readStatement(s string) (call, error) {
	p := &litParser{src: s}
	word := p.ident()
	var c call
	switch word {
	case "check":
		if !p.eat('(') {
			return c, fmt.Errorf("check without (")
		}
		d, err := p.strings()
		if err != nil || d.kind != kStr {
			return c, fmt.Errorf("check's first argument must be a string")
		}
		c.desc = d.s
		if !p.eat(',') {
			return c, fmt.Errorf("check takes three arguments")
		}
		if err := p.funcCall(&c); err != nil {
			return c, err
		}
		if !p.eat(',') {
			return c, fmt.Errorf("check takes three arguments")
		}
		if err := p.want(&c); err != nil {
			return c, err
		}
		p.eat(',')
		if !p.eat(')') {
			return c, fmt.Errorf("check takes three arguments")
		}
	case "assert":
		if err := p.funcCall(&c); err != nil {
			return c, err
		}
		c.desc = s[strings.Index(s, c.fn):p.pos]
		p.space()
		if !strings.HasPrefix(p.src[p.pos:], "==") {
			return c, fmt.Errorf("assert compares with ==")
		}
		p.pos += 2
		if err := p.want(&c); err != nil {
			return c, err
		}
		if p.eat(',') {
			if m, err := p.strings(); err != nil || m.kind != kStr {
				return c, fmt.Errorf("an assert message must be a string")
			}
		}
	default:
		return c, fmt.Errorf("%q", s)
	}
	if next := p.peek(); next != 0 && next != '#' {
		return c, fmt.Errorf("unexpected %q", p.rest(20))
	}
	return c, nil
}

func (p *litParser) ident() string {
	p.space()
	start := p.pos
	for p.pos < len(p.src) && isIdent(p.src[p.pos]) {
		p.pos++
	}
	return p.src[start:p.pos]
}

// funcCall reads FUNC(ARGS) with literal arguments.
func (p *litParser) funcCall(c *call) error {
	c.fn = p.ident()
	if c.fn == "" || (c.fn[0] >= '0' && c.fn[0] <= '9') {
		return fmt.Errorf("expected a call of the module's function")
	}
	if !p.eat('(') {
		return fmt.Errorf("expected %s(...)", c.fn)
	}
	start := p.pos
	if _, _, err := p.seq(')', 0); err != nil {
		return err
	}
	c.args = strings.TrimSpace(p.src[start : p.pos-1])
	return nil
}

func (p *litParser) want(c *call) error {
	p.space()
	start := p.pos
	v, err := p.value()
	if err != nil {
		return err
	}
	c.want, c.wantText = v, strings.TrimSpace(p.src[start:p.pos])
	return nil
}

// outcome is what the worker reports for one call.
type outcome struct {
	kind string // "value": text is the result's repr; "raised": text says what; "opaque": text names the type
	text string
}

// judge turns the worker's outcomes, one per call in order, into test results.
func judge(tests []testSpec, outs []outcome) []TestResult {
	res := make([]TestResult, 0, len(tests))
	k := 0
	for _, t := range tests {
		tr := TestResult{Name: t.name, Passed: true}
		for _, c := range t.calls {
			o := outs[k]
			k++
			if !tr.Passed {
				continue
			}
			if msg := verdict(c, o); msg != "" {
				tr.Passed, tr.Message = false, msg
			}
		}
		if tr.Passed && t.bad != "" {
			tr.Passed, tr.Message = false, t.bad
		}
		res = append(res, tr)
	}
	return res
}

// verdict returns why a call fails its test, or "" when it passes.
func verdict(c call, o outcome) string {
	switch o.kind {
	case "value":
		got, err := parseLiteral(o.text)
		if err != nil {
			return fmt.Sprintf("AssertionError: %s returned a value the judge cannot read (%v)", c.desc, err)
		}
		if equal(got, c.want) {
			return ""
		}
		return fmt.Sprintf("AssertionError: %s returned %s, expected %s", c.desc, o.text, c.wantText)
	case "opaque":
		return fmt.Sprintf("AssertionError: %s returned %s, not plain data (None, bool, int, float, str, bytes, "+
			"or a list, tuple, dict or set of them), expected %s", c.desc, o.text, c.wantText)
	}
	return o.text
}
