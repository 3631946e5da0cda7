// Command probe runs one exercise's cases against the agentrl package it was built with and prints
// each case's answer as one JSON line. The grader builds it against a student's chapter and runs
// it in a jail; it judges the lines itself (package assign).
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"

	"github.com/agenticrl/course/assign/exercises"
)

// Line is one case's answer: what Run returned, or the panic it raised.
type Line struct {
	Case  int             `json:"case"`
	Out   json.RawMessage `json:"out,omitempty"`
	Panic string          `json:"panic,omitempty"`
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: probe EXERCISE SEED")
		os.Exit(2)
	}
	e, ok := exercises.Find(os.Args[1])
	seed, err := strconv.ParseUint(os.Args[2], 10, 64)
	if !ok || err != nil {
		fmt.Fprintf(os.Stderr, "probe: unknown exercise %q or bad seed %q\n", os.Args[1], os.Args[2])
		os.Exit(2)
	}
	for i, c := range e.Cases(seed) {
		b, _ := json.Marshal(run(i, c))
		fmt.Printf("%s\n", b)
	}
}

func run(i int, c exercises.Case) (l Line) {
	l.Case = i
	defer func() {
		if r := recover(); r != nil {
			l.Out, l.Panic = nil, fmt.Sprint(r)
		}
	}()
	out, err := json.Marshal(c.Run())
	if err != nil {
		return Line{Case: i, Panic: "the answer cannot be written as data: " + err.Error()}
	}
	l.Out = out
	return l
}
