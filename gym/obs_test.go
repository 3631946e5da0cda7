package gym

import (
	"fmt"
	"strings"
	"testing"
)

func classes(line CodeLine) string {
	var parts []string
	for _, id := range line.Tokens {
		parts = append(parts, Vocab[id])
	}
	return fmt.Sprintf("%d:%s", line.Indent, strings.Join(parts, " "))
}

func TestEncodeCode(t *testing.T) {
	src := "def clamp(x, lo, hi):\n    if x < lo:\n        return lo\n    s = 'a' + 123\n"
	want := []string{
		"0:def name0 ( name1 , name2 , name3 ) :",
		"1:if name1 < name2 :",
		"2:return name2",
		"1:name4 = <str> + <num>",
	}
	got := EncodeCode(src)
	if len(got) != len(want) {
		t.Fatalf("%d lines, want %d", len(got), len(want))
	}
	for i := range want {
		if classes(got[i]) != want[i] {
			t.Errorf("line %d: %s, want %s", i+1, classes(got[i]), want[i])
		}
	}
	// Renaming variables must not change the encoding.
	renamed := strings.NewReplacer("clamp", "f", "lo", "a", "hi", "b").Replace(src)
	for i, l := range EncodeCode(renamed) {
		if classes(l) != want[i] {
			t.Errorf("renamed line %d: %s, want %s", i+1, classes(l), want[i])
		}
	}
}

func TestMenuKinds(t *testing.T) {
	src := "def f(xs, k):\n    total = 0\n    for i in range(len(xs) - 1):\n        if xs[i] < k and i > 0:\n            total += g(i, k)\n    return total\n"
	menu := Menu(src)
	want := map[int][]string{
		2: {"0 -> 1", "0 -> -1", "0 -> None"},
		3: {"drop - 1", "1 -> 2", "- -> +"},
		4: {"< -> <=", "and -> or", "> -> >="},
		5: {"+= -> -=", "swap i, k"},
		6: {"total -> xs", "total -> k", "total -> i"},
	}
	for line, ops := range want {
		var got []string
		for _, e := range menu[line-1] {
			got = append(got, e.Op)
		}
		all := strings.Join(got, "|")
		for _, op := range ops {
			if !strings.Contains(all, op) {
				t.Errorf("line %d: no %q among %s", line, op, all)
			}
		}
	}
	var inserts int
	for _, e := range menu[1] {
		if e.Insert != "" {
			inserts++
		}
	}
	// xs is a sequence (two guard conditions), k a number (one).
	if want := (len(sequenceGuards) + len(numberGuards)) * len(guardValues); inserts != want {
		t.Errorf("%d guard insertions on the first body line, want %d", inserts, want)
	}
}

// TestMenuClasses: every edit carries the class of what it does, and the class of an edit is
// the same wherever it is.
func TestMenuClasses(t *testing.T) {
	src := "def f(xs, k):\n    total = 0\n    for i in range(len(xs) - 1):\n        if xs[i] < k and i > 0:\n            total += g(i, k)\n    return total\n"
	want := map[string]string{ // op -> class
		"0 -> None": "init:None", "0 -> []": "init:[]", "drop - 1": "drop-1", "1 -> 2": "int+1",
		"- -> +": "op:+", "< -> <=": "cmp:<=", "> -> <": "cmp:<", "and -> or": "bool:or",
		"+= -> -=": "op:-", "swap i, k": "swap", "total -> xs": "return", "insert guard": "guard",
	}
	known := map[string]bool{}
	for _, c := range Classes {
		known[c] = true
	}
	seen := map[string]bool{}
	for _, line := range Menu(src) {
		for _, e := range line {
			if !known[e.Class] {
				t.Errorf("%s: class %q is not in Classes", e, e.Class)
			}
			if c, ok := want[e.Op]; ok {
				seen[e.Op] = true
				if e.Class != c {
					t.Errorf("%s: class %q, want %q", e, e.Class, c)
				}
			}
		}
	}
	for op := range want {
		if !seen[op] {
			t.Errorf("no edit %q in the menu", op)
		}
	}
}

// TestFixClasses: over the whole task family every edit has a listed class, and every listed
// class occurs (no class is dead).
func TestFixClasses(t *testing.T) {
	count := map[string]int{}
	for _, c := range Classes {
		count[c] = 0
	}
	fixes := map[string]int{}
	for _, task := range tasks(t) {
		for _, src := range []string{task.Buggy, task.Fix} {
			for _, line := range Menu(src) {
				for _, e := range line {
					if _, ok := count[e.Class]; !ok {
						t.Fatalf("%s: %s has class %q, not in Classes", task.ID, e, e.Class)
					}
					count[e.Class]++
				}
			}
		}
		ref, ok := FixEdit(task)
		if !ok {
			t.Fatalf("%s: no menu edit gives the fix", task.ID)
		}
		fixes[Menu(task.Buggy)[ref.Line-1][ref.Index].Class]++
	}
	for c, n := range count {
		if n == 0 {
			t.Errorf("class %q occurs in no menu of the task family", c)
		}
	}
	t.Logf("classes of the fixes: %v", fixes)
}
