package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/agenticrl/course/agentrl"
	"github.com/agenticrl/course/jsonfile"
)

// runSettings are the settings a training run's updates depend on. A run folder keeps them in
// run.json beside the checkpoint, and -resume refuses to continue a run under other settings:
// its metrics would mix two runs, and it would no longer reproduce the uninterrupted one. Only
// -steps may change, so that a finished run can be trained further.
type runSettings struct {
	Kind        string // kindTinyAgent
	Recipe      agentrl.TinyRecipe
	Seed        uint64
	Tasks       string
	TestTimeout time.Duration
	FastGraph   bool `json:",omitempty"` // absent in the run folders of versions without -fast-graph
}

// tinyFlagNames names the flag that sets each field of runSettings, by the field's path.
var tinyFlagNames = map[string]string{
	"Recipe.Algo": "-algo", "Recipe.Groups": "-groups", "Recipe.Size": "-group-size", "Recipe.Turns": "-turns",
	"Recipe.Patches": "-patches", "Recipe.SubmitAtLimit": "-submit-at-limit", "Recipe.Credit": "-credit",
	"Recipe.Gamma": "-gamma", "Recipe.Scale": "-scale", "Recipe.PassBonus": "-pass-bonus", "Recipe.Entropy": "-entropy-coef",
	"Recipe.KL": "-kl-coef", "Recipe.LR": "-lr", "Recipe.Refill": "-refill",
	"Seed": "-seed", "Tasks": "-tasks", "TestTimeout": "-test-timeout", "FastGraph": "-fast-graph",
}

func (f *trainFlags) settings() runSettings {
	tasks, err := filepath.Abs(f.tasks)
	if err != nil {
		tasks = f.tasks
	}
	return runSettings{Kind: kindTinyAgent, Recipe: f.recipe, Seed: f.seed, Tasks: tasks, TestTimeout: f.timeout, FastGraph: f.fastGraph}
}

// sameTiny is what a resumed TinyAgent run may change: -steps, so that a finished run can be
// trained further.
func sameTiny(run runSettings, now *runSettings) {
	now.Kind, now.Recipe.Steps = run.Kind, run.Recipe.Steps // claimRunFolder checked the kind
}

// writeJSON writes v to path as indented JSON, atomically: it writes a temporary file of its own
// in the same folder and renames it, so a reader never sees half a file and two writers never
// share a temporary file.
func writeJSON(path string, v any) error { return jsonfile.Write(path, v, "  ") }

// checkSettings refuses to resume the run whose settings run.json (path) holds under other
// settings than now, the settings of this start, for every trainer that resumes: it compares them
// field by field and names each difference by its flag (flags, by the field's path; a field
// without a flag by its path). same copies into now, from the run's settings, the fields that may
// differ (-steps, the run's kind, which claimRunFolder checked). Fields tagged json:"-" (code,
// not settings) are not compared.
func checkSettings[T any](path string, now T, flags map[string]string, same func(run T, now *T)) error {
	var run T
	if err := readSettings(path, &run); err != nil {
		return err
	}
	same(run, &now)
	if diffs := fieldDiffs("", reflect.ValueOf(run), reflect.ValueOf(now), flags); len(diffs) > 0 {
		return fmt.Errorf("%w: -resume continues a run under its own settings, and these differ from the run's: %s (give them as the run had them, or start a new run with -out)",
			errUsage, strings.Join(diffs, ", "))
	}
	return nil
}

// fieldDiffs names the fields of two values of one type that differ, as "flag was (now is)", in
// the order of the fields.
func fieldDiffs(path string, a, b reflect.Value, flags map[string]string) []string {
	if a.Kind() != reflect.Struct {
		if reflect.DeepEqual(a.Interface(), b.Interface()) {
			return nil
		}
		name, ok := flags[path]
		if !ok {
			name = path
		}
		return []string{fmt.Sprintf("%s %v (now %v)", name, a.Interface(), b.Interface())}
	}
	var out []string
	for i := range a.NumField() {
		f := a.Type().Field(i)
		if !f.IsExported() || f.Tag.Get("json") == "-" {
			continue
		}
		out = append(out, fieldDiffs(strings.TrimPrefix(path+"."+f.Name, "."), a.Field(i), b.Field(i), flags)...)
	}
	return out
}

// readSettings reads the settings a run folder's run.json holds into run.
func readSettings(path string, run any) error {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("%s is missing, so this run's settings cannot be checked: start a new run with -out", path)
	}
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, run); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// The kinds of run a run folder holds, recorded in its run.json as "Kind": each trainer writes
// only into a folder of its own kind, and -resume continues only a run of its own kind, since a
// run folder's files mean something else to each.
const (
	kindTinyAgent = "tinyagent"
	kindQwen3     = "qwen3"
	kindCapstone  = "capstone"
)

// runFolder is a run folder that a trainer has claimed: it is locked, and it held nothing the
// trainer did not write itself.
type runFolder struct {
	dir     string
	done    string // the file whose presence means the folder holds a run: its checkpoint, or its results
	created string // the outermost folder of dir's path that did not exist before; "" if dir did
	unlock  func()
	newLock bool // the lock file is this start's: a refused or failed start in a folder it did not make removes it

	mu      sync.Mutex
	started bool           // set-up succeeded: from here on, what the run wrote stays
	signals chan os.Signal // an interrupt during set-up, while the folder is one this start made
}

// claimRunFolder makes the run folder dir if it is missing, takes its lock (lockRun) and checks
// what it holds. A new run (resume false) takes a missing or empty folder, or one that an earlier
// start of the same kind left without a checkpoint (done missing), whose run.json and
// metrics.jsonl it rewrites; anything else is refused with what is there, so that a run never
// overwrites another's files. A resumed run takes only a run of its own kind.
func claimRunFolder(dir, kind, done string, resume bool) (*runFolder, error) {
	st, err := os.Stat(dir)
	if err == nil && !st.IsDir() {
		return nil, fmt.Errorf("%w: -out %s is a file, not a folder: choose another -out", errUsage, dir)
	}
	rf := &runFolder{dir: dir, done: filepath.Join(dir, done), created: firstMissing(dir)}
	if rf.created != "" {
		// Before anything exists: an interrupt from here on removes what this start made.
		rf.watchInterrupts()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		rf.release(err)
		return nil, err
	}
	_, statErr := os.Lstat(filepath.Join(dir, "lock"))
	if rf.unlock, err = lockRun(dir); err != nil {
		rf.release(err)
		return nil, err
	}
	rf.newLock = errors.Is(statErr, os.ErrNotExist)
	if err := rf.check(kind, resume); err != nil {
		rf.release(err)
		return nil, err
	}
	return rf, nil
}

// watchInterrupts removes the folders this start made when Ctrl-C or SIGTERM comes before set-up
// ends (an interrupt ends the process at once, without release), then lets the signal end the
// process as it would have.
func (rf *runFolder) watchInterrupts() {
	var sigs []os.Signal
	for _, sig := range []os.Signal{os.Interrupt, syscall.SIGTERM} {
		if !signal.Ignored(sig) { // one that would not have ended the process stays ignored
			sigs = append(sigs, sig)
		}
	}
	if len(sigs) == 0 {
		return
	}
	signals := make(chan os.Signal, 1)
	rf.signals = signals
	signal.Notify(signals, sigs...)
	go func() {
		sig, ok := <-signals
		if !ok {
			return
		}
		rf.mu.Lock()
		defer rf.mu.Unlock()
		if !rf.started {
			removeWhileWritten(rf.created)
		}
		rf.stopWatching()
		syscall.Kill(os.Getpid(), sig.(syscall.Signal))
	}()
}

// removeWhileWritten removes path while the set-up that this interrupt stops may still be
// writing a file into it: RemoveAll fails on a folder that gained a file as it was emptied, so
// it tries again (for a tenth of a second at most). Once the folder is gone, a set-up step's
// write fails instead of making it again (only claimRunFolder makes folders).
func removeWhileWritten(path string) {
	for range 100 {
		if os.RemoveAll(path) == nil {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// start marks set-up as done: from here on the run's folder stays, and an interrupt ends the
// process as usual (the run keeps its last checkpoint).
func (rf *runFolder) start() {
	rf.mu.Lock()
	defer rf.mu.Unlock()
	rf.started = true
	rf.stopWatching()
}

// stopWatching stops watchInterrupts, if it runs; rf.mu is held.
func (rf *runFolder) stopWatching() {
	if rf.signals != nil {
		signal.Stop(rf.signals)
		close(rf.signals)
		rf.signals = nil
	}
}

// check refuses a folder that this run may not write (see claimRunFolder).
func (rf *runFolder) check(kind string, resume bool) error {
	entries, err := os.ReadDir(rf.dir)
	if err != nil {
		return err
	}
	var foreign []string
	for _, e := range entries {
		if n := e.Name(); n != "lock" && n != "run.json" && n != "metrics.jsonl" {
			foreign = append(foreign, n)
		}
	}
	_, hasRun := os.Stat(rf.done)
	if len(entries) == 0 || (len(entries) == 1 && entries[0].Name() == "lock") {
		if resume {
			return fmt.Errorf("%s holds no run to resume: start a new run without -resume", rf.dir)
		}
		return nil
	}
	had := runKind(filepath.Join(rf.dir, "run.json"))
	switch {
	case had != "" && had != kind:
		return fmt.Errorf("%s holds a %s run (its run.json says so), not a %s run: choose another -out", rf.dir, had, kind)
	case had == kind && resume:
		return nil
	case had == kind && hasRun == nil:
		hint := "pass -resume to continue it, or choose another -out for a new run"
		if kind == kindCapstone { // it has no checkpoint to resume from
			hint = "choose another -out for a new run"
		}
		return fmt.Errorf("%s already holds a %s run: %s", rf.dir, kind, hint)
	case had == kind && len(foreign) == 0:
		return nil // an earlier start that saved no checkpoint: nothing of value to keep
	}
	if len(foreign) == 0 { // run.json or metrics.jsonl, but no run.json of any run
		for _, e := range entries {
			if e.Name() != "lock" {
				foreign = append(foreign, e.Name())
			}
		}
	}
	what := strings.Join(foreign[:min(len(foreign), 5)], ", ")
	if len(foreign) > 5 {
		what += fmt.Sprintf(" and %d more", len(foreign)-5)
	}
	return fmt.Errorf("%s holds files that are not a %s run's (%s): choose another -out, or move them away", rf.dir, kind, what)
}

// release unlocks the folder. A start that failed before set-up ended (err non-nil, started
// false) removes the folders it made (the run folder, and runs/ if it made that too), or, in a
// folder that was there, the lock file it made, so a mistyped flag, a missing file or a refused
// folder leaves nothing behind; a run that got further keeps what it wrote.
func (rf *runFolder) release(err error) {
	rf.mu.Lock()
	defer rf.mu.Unlock()
	rf.stopWatching()
	failed := err != nil && !rf.started
	if failed && rf.created == "" && rf.newLock {
		os.Remove(filepath.Join(rf.dir, "lock")) // before unlocking: the next start makes its own
	}
	if rf.unlock != nil {
		rf.unlock()
	}
	if failed && rf.created != "" {
		os.RemoveAll(rf.created)
	}
}

// firstMissing is the outermost folder on dir's path that does not exist (dir itself, or the
// runs/ above it), which MkdirAll will make; "" when dir exists.
func firstMissing(dir string) string {
	missing := ""
	for p := filepath.Clean(dir); ; p = filepath.Dir(p) {
		if _, err := os.Lstat(p); err == nil {
			return missing
		}
		missing = p
		if filepath.Dir(p) == p {
			return missing
		}
	}
}

// runKind is the kind of run the run.json at path records: its "Kind", or for a run.json written
// before kinds were recorded, the kind its fields belong to; "" if there is none.
func runKind(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(b, &fields) != nil {
		return ""
	}
	var kind string
	if json.Unmarshal(fields["Kind"], &kind) == nil && kind != "" {
		return kind
	}
	for field, kind := range map[string]string{"Recipe": kindTinyAgent, "Round": kindQwen3, "Seeds": kindCapstone} {
		if _, ok := fields[field]; ok {
			return kind
		}
	}
	return ""
}

// lockRun takes the run folder's lock, so that two processes never write one run at once. The
// lock goes with the process, however it ends.
func lockRun(dir string) (unlock func(), err error) {
	path := filepath.Join(dir, "lock")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		holder, _ := os.ReadFile(path)
		f.Close()
		who := "another process"
		if pid, err := strconv.Atoi(strings.TrimSpace(string(holder))); err == nil {
			who = fmt.Sprintf("process %d", pid)
		}
		return nil, fmt.Errorf("%s is being written by %s: wait for it to finish, or use another -out", dir, who)
	}
	f.Truncate(0)
	f.WriteString(strconv.Itoa(os.Getpid()) + "\n")
	return func() { f.Close() }, nil
}
