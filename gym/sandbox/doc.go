// Package sandbox runs untrusted Python code for the BugFix gym, real CPython (/usr/bin/python3),
// and judges its results where that code never runs.
//
// # Judge and worker
//
// A run is a module and a test file. The test file is read by the judge (readTests), in Go, and
// never executed: each test is a list of calls of the module's functions with literal
// arguments, and the value each must return. A worker process, forked afresh for the run, loads
// the module, makes the calls and sends back what they returned as plain data: the repr of a
// value made only of exact builtin types (None, bool, int, float, str, bytes, and lists, tuples,
// dicts and sets of them), at most 64 KiB, or the exception a call raised. The judge parses those
// values and compares them with the expected ones by Python's == on plain data. So the code under
// test never sees the expected values, no method of an object it made is ever called, and
// nothing it prints or any exit code decides anything: rewriting the runner in memory, objects
// equal to anything and forged reports earn nothing. (Literal parsing and == on plain values are
// written here because nothing in Go's libraries reads Python literals.)
//
// # Every run in a new process
//
// A Pool keeps a few workers. Each is a Python process started in fresh Linux user, mount, PID,
// network, IPC and UTS namespaces. A small Python launcher (launcher.py) makes them and stays as
// the worker's parent: Go cannot create a user namespace with vfork, and a full fork of a trainer
// with a large heap makes its every page fault again afterwards (seconds per restart). Before it
// reads its first request the worker mounts a small tmpfs root holding read-only binds of /usr
// (and the /lib links), a size-capped scratch /tmp, pivots into it, sets rlimits (address space,
// file size, open files, CPU time, processes) and drops to a dedicated, unprivileged uid per
// worker slot.
//
// The worker itself never runs code under test: it is a zygote. For each run it forks a child
// that enters a user and IPC namespace of its own (so System V objects die with it, and nested
// namespaces are refused to it), loads the module and makes the calls; afterwards the worker
// kills the child and everything it started and empties the scratch folder. Nothing a run does to
// memory, namespaces, threads, signal handlers or files reaches the next run. RunAll runs several
// test files on one module in one such process, the module loaded afresh for each file (the gym
// does so at submit, never beside the agent's own test runs, whose output the agent reads). The
// worker reads each request into one buffer that it wipes after the run and keeps no reference to
// a run's answers, so a run cannot find what earlier runs were asked or answered. Results are memoized by a hash of their content, and so are timeouts (the same run is
// taken to time out again) unless Options.RetryTimeouts. With Options.MemoDir the memo is also
// kept on disk, a file per run, for later processes; timeouts stay in memory, and the file names
// hash the interpreter and the limits.
//
// A run's time limit (Options.Timeout) is on the CPU time of the process that runs it, which does
// not grow while a busy machine runs other processes: whether a run times out does not depend on
// the load. A wall-clock backstop (Options.Backstop) stops a run that sleeps or blocks; one it
// stops within its CPU time runs once more before it counts, and such a verdict, which may depend
// on the load, is never memoized. RunCold starts a whole new worker per
// run: the baseline the benchmarks compare against.
//
// A fork per run is what isolation costs: on the machine the course was measured on (a virtual
// machine where a page fault costs about 12 µs and fork-heavy work does not scale across cores)
// it is about 65 runs per second, against about 5,000 for the warm workers that ran every test
// in one long-lived interpreter before. The memo answers most runs of a training.
//
// Where the kernel refuses namespaces (an unprivileged container), New falls back to
// ModeRlimits: the same workers with rlimits, a private scratch directory and a process group,
// but no filesystem or network isolation and no IPC namespace per run. It says so loudly on
// standard error and Mode reports it; it never runs unconfined silently.
package sandbox
