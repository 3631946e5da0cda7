package main

import (
	"bytes"
	"strings"
	"testing"
)

// Help exits 0 at every level the README lists, and a call that names no command, or an unknown
// one, exits 2.
func TestHelpAndUnknownNames(t *testing.T) {
	old := stderr
	defer func() { stderr = old }()
	for _, c := range []struct {
		args []string
		code int
		says string
	}{
		{[]string{"-h"}, 0, "commands:"},
		{[]string{"--help"}, 0, "commands:"},
		{nil, 2, "commands:"},
		{[]string{"nosuch"}, 2, `unknown command "nosuch"`},
		{[]string{"assign", "-h"}, 0, "assign release"},
		{[]string{"book", "-h"}, 0, "build-library"},
		{[]string{"book", "zh", "-h"}, 0, "zh sync"},
		{[]string{"gym", "-h"}, 0, "gym"},
		{[]string{"qwen3", "-h"}, 0, "tokenize"},
		{[]string{"train", "-h"}, 0, "train capstone"},
		{[]string{"bench", "-h"}, 0, "bench tinyagent"},
		{[]string{"study", "-h"}, 0, "study verify"},
		{[]string{"study", "nosuch"}, 2, `unknown subcommand "nosuch"`},
		{[]string{"train", "tinyagent", "-h"}, 0, "-algo"},
		{[]string{"assign", "release", "-h"}, 0, "-force"},
		{[]string{"assign", "nosuch"}, 2, `unknown subcommand "nosuch"`},
		{[]string{"train", "nosuch"}, 2, `unknown subcommand "nosuch"`},
		{[]string{"gym", "show", "no_such_task"}, 2, `no task "no_such_task"`},
		{[]string{"assign", "release", "--out", t.TempDir(), "ch99"}, 2, `no notebook matches "ch99"`},
	} {
		var buf bytes.Buffer
		stderr = &buf
		if code := runMain(c.args); code != c.code || !strings.Contains(buf.String(), c.says) {
			t.Errorf("agentrl %q: exit %d, want %d; said:\n%s", c.args, code, c.code, buf.String())
		}
	}
}
