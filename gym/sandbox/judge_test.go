package sandbox

import (
	"strings"
	"testing"
)

// TestEqualIsPythonEquality checks the judge's == against what Python says of the same literals.
func TestEqualIsPythonEquality(t *testing.T) {
	for _, c := range []struct {
		a, b string
		eq   bool
	}{
		{"1", "1", true}, {"1", "1.0", true}, {"True", "1", true}, {"False", "0.0", true}, {"True", "2", false},
		{"0.1 + 0.2", "", false}, // not a literal: see TestParseLiteralRejects
		{"10**3", "", false},
		{"-0.0", "0", true}, {"nan", "nan", false}, {"inf", "inf", true}, {"2.5", "2", false},
		{"123456789012345678901234567890", "123456789012345678901234567890", true},
		{"9007199254740993", "9007199254740992.0", false},
		{"'a'", `"a"`, true}, {"'a' 'b'", "'ab'", true}, {`'\x41\u00e9'`, "'Aé'", true}, {"'a'", "b'a'", false},
		{"[1, 2]", "[1, 2]", true}, {"[1, 2]", "(1, 2)", false}, {"(1,)", "(1)", false}, {"(1)", "1", true},
		{"[]", "[]", true}, {"()", "()", true}, {"[[1], [2, [3]]]", "[[1], [2, [3.0]]]", true},
		{"{1: 'a', 2: 'b'}", "{2: 'b', 1: 'a'}", true}, {"{1: 'a'}", "{1: 'b'}", false}, {"{1: 2, 1: 3}", "{1: 3}", true},
		{"{1, 2, 2}", "{2, 1}", true}, {"set()", "set()", true}, {"frozenset({1})", "{1}", true}, {"{}", "set()", false},
		{"None", "None", true}, {"None", "0", false}, {"None", "[]", false}, {"0x10", "16", true}, {"1_000", "1000", true},
	} {
		if c.b == "" {
			continue
		}
		a, err := parseLiteral(c.a)
		if err != nil {
			t.Fatalf("%s: %v", c.a, err)
		}
		b, err := parseLiteral(c.b)
		if err != nil {
			t.Fatalf("%s: %v", c.b, err)
		}
		if got := equal(a, b); got != c.eq {
			t.Errorf("%s == %s: got %v, want %v", c.a, c.b, got, c.eq)
		}
	}
}

func TestParseLiteralRejects(t *testing.T) {
	for _, s := range []string{"0.1 + 0.2", "10**3", "f(1)", "x", "[1, 2", "'abc", "{1: }", "__import__('os')", "[1 2]", "", "-'a'",
		strings.Repeat("[", 200) + strings.Repeat("]", 200)} {
		if v, err := parseLiteral(s); err == nil {
			t.Errorf("%q read as %+v, want an error", s, v)
		}
	}
}

// TestReadTests reads the forms a test file may use, and turns what it cannot read into a
// failing test that says why.
func TestReadTests(t *testing.T) {
	src := `"""Tests."""
from m import f


def check(call, got, want):
    assert got == want


def test_check():
    check("f(1, [2, 3])", f(1, [2, 3]), {'a': (1,)})


def test_assert():
    """A docstring."""
    # a comment
    assert f('x,)') == None, 'message'
    assert f(
        1,
        2,
    ) == [1,
          2]


def test_pass():
    pass


def test_other():
    x = f(1)
    assert x == 1


def helper():
    assert f(9) == 9


def test_args(x) -> None:
    assert f(1) == 1


def test_inline(): assert f(2) == 2  # a comment


if __name__ == "__main__":
    test_check()
`
	tests, err := readTests(src, "t.py")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tt := range tests {
		names = append(names, tt.name)
	}
	if strings.Join(names, " ") != "test_check test_assert test_pass test_other test_args test_inline" {
		t.Fatalf("tests %v", names)
	}
	c := tests[0].calls[0]
	if c.desc != "f(1, [2, 3])" || c.fn != "f" || c.args != "1, [2, 3]" || c.wantText != "{'a': (1,)}" {
		t.Fatalf("check form read as %+v", c)
	}
	if n := len(tests[1].calls); n != 2 || tests[1].calls[0].args != "'x,)'" || tests[1].calls[0].desc != "f('x,)')" {
		t.Fatalf("assert form read as %+v", tests[1].calls)
	}
	if len(tests[2].calls) != 0 || tests[2].bad != "" {
		t.Fatalf("pass read as %+v", tests[2])
	}
	if !strings.Contains(tests[3].bad, "t.py line 29") {
		t.Fatalf("unreadable statement: %q", tests[3].bad)
	}
	if !strings.Contains(tests[4].bad, "without parameters") {
		t.Fatalf("a test with parameters: %+v", tests[4])
	}
	if c := tests[5].calls; len(c) != 1 || c[0].desc != "f(2)" {
		t.Fatalf("a test on one line: %+v", tests[5])
	}
	res := judge(tests, []outcome{{"value", "{'a': (1,)}"}, {"value", "None"}, {"value", "[1, 2.0]"}, {"value", "2"}})
	for i, want := range []bool{true, true, true, false, false, true} {
		if res[i].Passed != want {
			t.Errorf("%s: passed %v, want %v (%s)", res[i].Name, res[i].Passed, want, res[i].Message)
		}
	}
	if _, err := readTests("def test_1():\n    assert f(1 == 2\n", "t.py"); err == nil {
		t.Fatal("an unclosed bracket was read")
	}
}

// TestVerdictMessages keeps the failure messages the gym's observations are built from.
func TestVerdictMessages(t *testing.T) {
	c := call{desc: "clamp(-7, -1, -1)", fn: "clamp", args: "-7, -1, -1", wantText: "-1"}
	c.want, _ = parseLiteral(c.wantText)
	for _, x := range []struct {
		out  outcome
		want string
	}{
		{outcome{"value", "-1"}, ""},
		{outcome{"value", "-7"}, "AssertionError: clamp(-7, -1, -1) returned -7, expected -1"},
		{outcome{"raised", "IndexError: list index out of range [clamp.py line 3]"}, "IndexError: list index out of range [clamp.py line 3]"},
		{outcome{"opaque", "an object of type X"}, "AssertionError: clamp(-7, -1, -1) returned an object of type X, not plain data"},
		{outcome{"value", "<X object>"}, "AssertionError: clamp(-7, -1, -1) returned a value the judge cannot read"},
	} {
		if got := verdict(c, x.out); !strings.HasPrefix(got, x.want) || (x.want == "") != (got == "") {
			t.Errorf("%+v: %q, want %q", x.out, got, x.want)
		}
	}
}
