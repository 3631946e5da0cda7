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
