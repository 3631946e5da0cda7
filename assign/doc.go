// Package assign turns chapters into classroom assignments and grades what students hand back.
//
// # Markers
//
// A solution region is a //@save code cell whose metadata carries an "assign" object: the
// exercise's name, title and points, and the functions of the cell the student writes. Metadata
// is invisible to a reader: the book, the site and the checker see the cell as before.
//
// # Release
//
// Release writes the student's notebook: the prose and exercises kept, the body of each marked
// function replaced by a stub that compiles and panics with what to write (the function's doc
// comment above it says what it does), and the outputs of every code cell from the first marked
// one on cleared, since they would show the answers.
//
// # Grading
//
// A submission is untrusted code, so it never runs in the grader's process, nor in Jupyter. Grade
// takes the chapter's reference notebook, puts the student's marked cells in place of the
// reference ones, builds the chapter's library file from it (as `book build-library` does) and
// compiles the probe (package assign/probe) against it with a build overlay: nothing in the
// checkout is written. A marked cell that does not parse or compile is replaced by its stub and
// scores zero, so the others are still graded. For each exercise the probe runs in a jail (see
// Jail): fresh user, mount, PID, network, IPC and UTS namespaces, an empty root (the probe runs
// from a file the grader opened outside it), and limits on time, memory, file size, output and
// processes. It calls the student's functions on the
// inputs of package assign/exercises and prints what they return as plain data, one line per
// case. The grader, which never runs student code, compares those values with the reference
// implementation and with the properties each case states (hand-computed values, finite
// differences, invariants), on inputs drawn from a seed the grader chooses. Neither the expected
// values nor the tests' source are in the jail: printing forged lines gains nothing but what the
// values are worth, and reading or writing the grader's files is impossible.
//
// Where the kernel refuses user namespaces, the jail falls back to limits alone and says so in
// every report; AGENTRL_REQUIRE_NAMESPACES=1 makes that an error instead.
//
// Written by hand: nbgrader and otter-grader release and grade Python notebooks, and nothing does
// this for Go notebooks.
package assign
