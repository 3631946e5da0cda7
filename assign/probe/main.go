// Command probe runs one exercise's cases against the agentrl package it was built with and prints
// each case's answer as one JSON line. The grader builds it against a student's chapter and runs
// it in a jail; it judges the lines itself (package assign). Each line carries an HMAC under a key
// the grader writes to standard input, read before any student code runs: a line the student's
// code prints, claiming an answer, has no valid MAC and is ignored.
package main

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/agenticrl/course/assign/exercises"
)

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
	hexKey, err := bufio.NewReader(os.Stdin).ReadString('\n')
	key, err2 := hex.DecodeString(strings.TrimSpace(hexKey))
	if err != nil || err2 != nil || len(key) < 16 {
		fmt.Fprintln(os.Stderr, "probe: no key on standard input")
		os.Exit(2)
	}
	os.Stdin.Close()
	for i, c := range e.Cases(seed) {
		l := run(i, c)
		l.MAC = exercises.Sign(key, l)
		b, _ := json.Marshal(l)
		fmt.Printf("%s\n", b)
	}
}

func run(i int, c exercises.Case) (l exercises.Line) {
	l.Case = i
	defer func() {
		if r := recover(); r != nil {
			l.Out, l.Panic = nil, fmt.Sprint(r)
		}
	}()
	out, err := json.Marshal(c.Run())
	if err != nil {
		return exercises.Line{Case: i, Panic: "the answer cannot be written as data: " + err.Error()}
	}
	l.Out = out
	return l
}
