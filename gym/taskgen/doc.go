// Package taskgen generates the BugFix task family from a fixed set of correct Python function
// templates with a seeded generator.
//
// Every candidate edit of the gym's edit menu that turns a template into different code is a
// candidate bug. A candidate is kept when (1) one menu edit of the buggy module restores the
// template exactly, (2) it never loops past a short time limit, and (3) at least two test inputs
// expose it, so that the visible tests can show one and the hidden tests hold another the agent
// never saw. Expected results are computed by running the correct template in /usr/bin/python3.
// Templates are assigned whole to the train, dev and test splits, so held-out tasks are unseen
// code; the assignment is the seeded shuffle under which the most splits show the most kinds.
// The output is committed under datasets/bugfix; Generate with the same seed reproduces it byte
// for byte.
//
// A second family, Options.Family "heldout", is made the same way from templates of its own
// (heldout.go) that share none with datasets/bugfix, for evaluation only: half of them (rounded
// up) go to test and the rest to dev, with no train split, and up to 10 tasks are kept per
// template and kind instead of 2. It is committed under datasets/bugfix-heldout (`agentrl gym
// generate -family heldout -tasks datasets/bugfix-heldout`), and reproduced byte for byte too.
package taskgen
