// Package sandbox runs untrusted Python test code for the BugFix gym: real CPython
// (/usr/bin/python3) in warm, confined worker processes.
//
// A Pool keeps a few long-lived workers. Each worker is a Python process started in fresh
// Linux user, mount, PID, network, IPC and UTS namespaces. A small Python launcher (launcher.py)
// makes them and stays as the worker's parent: Go cannot create a user namespace with vfork, and
// a full fork of a trainer with a large heap makes its every page fault again afterwards (seconds
// per restart). Before it reads its first request the worker mounts a small tmpfs root holding
// read-only binds of /usr (and the /lib links), a size-capped scratch /tmp, pivots into it, sets
// rlimits (address space, file size, open files, CPU time, processes) and drops to a dedicated,
// unprivileged uid per worker slot. A run sends one module and one test file over a pipe and gets
// back the outcome of every test_* function, in about half a millisecond instead of the ~50 ms a
// fresh interpreter costs.
//
// Between runs the worker restores builtins, the dictionaries of the modules it had loaded,
// sys.path, os.environ, the recursion limit and trace hooks, wipes its scratch folder and
// forgets modules a test imported. A run that times out, crashes the interpreter or leaves a
// thread or child process behind taints its worker: the whole PID namespace is killed and a
// fresh worker takes its place. Results of deterministic runs are memoized by a hash of their
// content, and so are timeouts (the same run is taken to time out again) unless
// Options.RetryTimeouts.
//
// Three ways to run, from fastest to most isolated: Run uses a warm worker; RunFresh forks a
// child from a pristine worker that never ran a test (a new process whose state no test has
// touched; everything it starts is killed afterwards), which is what the gym uses for hidden
// tests at submit; RunCold starts a new interpreter per run, the baseline the benchmarks compare
// against.
//
// Where the kernel refuses namespaces (an unprivileged container), New falls back to
// ModeRlimits: the same workers with rlimits, a private scratch directory and a process group,
// but no filesystem or network isolation. It says so loudly on standard error and Mode reports
// it; it never runs unconfined silently.
//
// Not contained: code under test can fake its own result from inside the worker (it shares the
// interpreter that reports it), and nested user namespaces are not blocked (that needs seccomp).
package sandbox
