package main

// This file is a placeholder so the qwen3 subcommands build on their own; the qwen3 dispatcher
// proper lives with the tokenizer and chat-template commands.

import (
	"fmt"
	"sort"
	"strings"
)

// qwen3Commands are the subcommands of `agentrl qwen3`, registered by init functions.
var qwen3Commands = map[string]command{}

func init() {
	register(command{name: "qwen3", summary: "Qwen3 model tools (agentrl qwen3 SUBCOMMAND)", run: qwen3Main})
}

func qwen3Main(args []string) error {
	names := make([]string, 0, len(qwen3Commands))
	for n := range qwen3Commands {
		names = append(names, n)
	}
	sort.Strings(names)
	if len(args) == 0 {
		return fmt.Errorf("%w: agentrl qwen3 SUBCOMMAND, one of: %s", errUsage, strings.Join(names, ", "))
	}
	c, ok := qwen3Commands[args[0]]
	if !ok {
		return fmt.Errorf("%w: unknown qwen3 subcommand %q (have: %s)", errUsage, args[0], strings.Join(names, ", "))
	}
	return c.run(args[1:])
}
