package gym

import (
	"fmt"
	"strings"

	"github.com/agenticrl/course/gym/sandbox"
)

// Vocab is the fixed vocabulary of code-token classes used by StructObs: Python keywords,
// a few builtins, operators and punctuation, the small integers, and name slots. Names are
// numbered by first appearance in the module (name0, name1, ...), so the classes do not depend
// on what a variable is called. The index of a class is its id; 0 is padding.
var Vocab = buildVocab()

const maxNameSlots = 16

func buildVocab() []string {
	v := []string{"<pad>", "<unk>"}
	for _, k := range []string{"False", "None", "True", "and", "break", "continue", "def", "elif", "else",
		"for", "if", "in", "is", "not", "or", "pass", "return", "while", "import", "from", "lambda"} {
		v = append(v, k)
	}
	for _, b := range []string{"len", "range", "min", "max", "abs", "sum", "sorted", "list", "str", "int",
		"divmod", "append", "extend", "insert", "find", "join", "reverse"} {
		v = append(v, b)
	}
	for _, op := range []string{"+", "-", "*", "//", "/", "%", "**", "<", "<=", ">", ">=", "==", "!=", "=",
		"+=", "-=", "*=", "//=", "(", ")", "[", "]", "{", "}", ",", ":", "."} {
		v = append(v, op)
	}
	for i := 0; i <= 9; i++ {
		v = append(v, fmt.Sprint(i))
	}
	v = append(v, "<num>", "<str>", "<name>")
	for i := 0; i < maxNameSlots; i++ {
		v = append(v, fmt.Sprintf("name%d", i))
	}
	return v
}

var vocabID = func() map[string]int {
	m := map[string]int{}
	for i, s := range Vocab {
		m[s] = i
	}
	return m
}()

// CodeLine is one line of the module as token-class ids.
type CodeLine struct {
	Indent int   `json:"indent"` // indentation depth in units of four spaces
	Tokens []int `json:"tokens"` // ids into Vocab
}

// EncodeCode turns a module into token-class ids, line by line. A line that cannot be split
// into tokens becomes a single <unk>.
func EncodeCode(src string) []CodeLine {
	names := map[string]int{}
	var out []CodeLine
	for _, line := range SplitLines(src) {
		cl := CodeLine{Indent: len(strings.ReplaceAll(indentOf(line), "\t", "    ")) / 4}
		toks, ok := tokenize(line)
		if !ok {
			cl.Tokens = []int{vocabID["<unk>"]}
			out = append(out, cl)
			continue
		}
		for _, t := range toks {
			cl.Tokens = append(cl.Tokens, tokenClass(t, names))
		}
		out = append(out, cl)
	}
	return out
}

func tokenClass(t tok, names map[string]int) int {
	switch t.kind {
	case tComment:
		return vocabID["<pad>"]
	case tString:
		return vocabID["<str>"]
	case tNumber:
		if id, ok := vocabID[t.text]; ok {
			return id
		}
		return vocabID["<num>"]
	}
	if id, ok := vocabID[t.text]; ok {
		return id
	}
	if t.kind != tName {
		return vocabID["<unk>"]
	}
	slot, ok := names[t.text]
	if !ok {
		slot = len(names)
		names[t.text] = slot
	}
	if slot >= maxNameSlots {
		return vocabID["<name>"]
	}
	return vocabID[fmt.Sprintf("name%d", slot)]
}

// Symptom classifies how the latest test run went, for StructObs.
type Symptom int

const (
	SymNone         Symptom = iota // all tests passed, or no run yet
	SymWrongValue                  // an assertion failed: the function returned the wrong value
	SymTypeError                   // the first failure raised TypeError
	SymIndexError                  // IndexError or KeyError
	SymZeroDivision                // ZeroDivisionError
	SymOtherError                  // any other exception
	SymTimeout                     // the run ran out of time
	SymBroken                      // the module or the test file did not load
)

// Symptoms names each Symptom by its value.
var Symptoms = []string{"none", "wrong_value", "type_error", "index_error", "zero_division", "other_error", "timeout", "broken"}

func (s Symptom) String() string { return Symptoms[s] }

// TestSummary is the compact form of the latest visible test run.
type TestSummary struct {
	Ran       bool    `json:"ran"`        // a test run happened in this episode
	Stale     bool    `json:"stale"`      // the code changed since that run
	Passed    int     `json:"passed"`     // tests passed
	Total     int     `json:"total"`      // tests run
	FirstFail int     `json:"first_fail"` // 1-based index of the first failing test; 0 if none
	Symptom   Symptom `json:"symptom"`    // how the first failure failed
}

func summarize(r *sandbox.Result) TestSummary {
	s := TestSummary{Ran: true, Passed: r.Passed(), Total: len(r.Tests)}
	switch r.Status {
	case sandbox.StatusTimeout:
		s.Symptom = SymTimeout
		return s
	case sandbox.StatusOK:
	default:
		s.Symptom = SymBroken
		return s
	}
	for i, t := range r.Tests {
		if t.Passed {
			continue
		}
		s.FirstFail = i + 1
		switch msg := t.Message; {
		case strings.HasPrefix(msg, "AssertionError"):
			s.Symptom = SymWrongValue
		case strings.HasPrefix(msg, "TypeError"):
			s.Symptom = SymTypeError
		case strings.HasPrefix(msg, "IndexError"), strings.HasPrefix(msg, "KeyError"):
			s.Symptom = SymIndexError
		case strings.HasPrefix(msg, "ZeroDivisionError"):
			s.Symptom = SymZeroDivision
		default:
			s.Symptom = SymOtherError
		}
		break
	}
	return s
}

// StructObs is the observation for a tiny policy: the code as token classes, the latest test
// summary and the menu of candidate edits, always complete so that a policy needs no memory of
// earlier turns. Menu[i] lists the edits of line i+1; an edit is chosen with
// Action{Tool: "edit", Menu: &MenuRef{Line: i + 1, Index: k}}. Code and Menu are shared with
// the Env until the module changes: read them, do not modify them.
type StructObs struct {
	Tool  string       `json:"tool"`  // tool of the action just taken ("" after Reset)
	Error ErrCode      `json:"error"` // what was wrong with that action; ErrNone if it was fine
	Code  []CodeLine   `json:"code"`  // the module now
	Tests TestSummary  `json:"tests"` // the latest visible test run
	Menu  [][]MenuEdit `json:"menu"`
	Tried []MenuRef    `json:"tried,omitempty"` // the patches tried so far, under Config.TryPatches
	// Patches is set under Config.TryPatches: every menu edit is tested at once, so the
	// observation already holds what read and test would return.
	Patches bool `json:"patches,omitempty"`
	// Exploit is set under Config.AllowExploit: the exploit tool is offered.
	Exploit   bool `json:"exploit,omitempty"`
	Turn      int  `json:"turn"` // actions taken so far
	TurnsLeft int  `json:"turns_left"`
}

// ErrCode classifies a rejected action.
type ErrCode int

const (
	ErrNone        ErrCode = iota
	ErrUnknownTool         // no such tool (or exploit while it is disabled)
	ErrBadArgs             // missing, malformed or out-of-range arguments
	ErrSyntax              // the edit would leave a file that does not compile; nothing changed
	ErrNoMatch             // search text not found, or found more than once
	ErrProtected           // the file may not be edited
	ErrDone                // the episode is over
)

// ErrCodes names each ErrCode by its value.
var ErrCodes = []string{"none", "unknown_tool", "bad_args", "syntax", "no_match", "protected", "done"}

func (e ErrCode) String() string { return ErrCodes[e] }
