// Package study runs the book's experiments at the scale their claims need, outside the chapter
// check, and keeps their results as committed, checked data.
//
// A Study is declared in code (a chapter's //@save cell): its arms, each one named change against
// a named control arm; its seeds; its training budget; and its evaluation design (the held-out
// tasks, the episodes per task, the sampling streams the arms share, so outcomes pair up task by
// task). Its Run function trains and evaluates one arm from one seed: a job. `agentrl study run`
// runs the jobs (resumably, in parallel processes, or one shard of them) and writes
// notebooks/studies/CHAPTER/NAME.json: every job's curves and per-task outcomes, and provenance
// (the hashes of the declaration and of the code, the command, the machine, the wall time, the
// date). A chapter loads that file and compares arms with Compare, a paired interval over seeds
// and tasks.
//
// Freshness: the data file records the declaration's hash and the hash of the code the study
// runs (the files its Code globs name; in the package that declares Run, only the declarations
// Run can reach). Check reports a study whose declaration or code changed
// since its data was written, with the command that re-runs it; `make test` fails on it.
//
// Written by hand: the orchestration is plumbing, and the one statistic here (a two-way bootstrap
// over seeds and tasks) extends Chapter 17's paired bootstrap over tasks, which the package
// cannot import (the chapters' library imports this package).
package study
