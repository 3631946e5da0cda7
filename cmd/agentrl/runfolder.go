package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/agenticrl/course/agentrl"
)

// runSettings are the settings a training run's updates depend on. A run folder keeps them in
// run.json beside the checkpoint, and -resume refuses to continue a run under other settings:
// its metrics would mix two runs, and it would no longer reproduce the uninterrupted one. Only
// -steps may change, so that a finished run can be trained further.
type runSettings struct {
	Recipe      agentrl.TinyRecipe
	Seed        uint64
	Tasks       string
	TestTimeout time.Duration
}

// recipeFlags names the flag of each field of agentrl.TinyRecipe.
var recipeFlags = map[string]string{
	"Algo": "-algo", "Steps": "-steps", "Groups": "-groups", "Size": "-group-size", "Turns": "-turns",
	"Patches": "-patches", "SubmitAtLimit": "-submit-at-limit", "Credit": "-credit", "Gamma": "-gamma",
	"Scale": "-scale", "PassBonus": "-pass-bonus", "Entropy": "-entropy-coef", "KL": "-kl-coef",
	"LR": "-lr", "Refill": "-refill",
}

func (f *trainFlags) settings() runSettings {
	tasks, err := filepath.Abs(f.tasks)
	if err != nil {
		tasks = f.tasks
	}
	return runSettings{Recipe: f.recipe, Seed: f.seed, Tasks: tasks, TestTimeout: f.timeout}
}

// differences lists, flag by flag, where now differs from the run's settings (-steps aside).
func (run runSettings) differences(now runSettings) []string {
	var diffs []string
	add := func(flag string, was, is any) {
		if !reflect.DeepEqual(was, is) {
			diffs = append(diffs, fmt.Sprintf("%s %v (now %v)", flag, was, is))
		}
	}
	rv, nv := reflect.ValueOf(run.Recipe), reflect.ValueOf(now.Recipe)
	for i := range rv.NumField() {
		name := rv.Type().Field(i).Name
		if name == "Steps" {
			continue
		}
		flag, ok := recipeFlags[name]
		if !ok {
			flag = name // a recipe field without a flag yet: named as the recipe names it
		}
		add(flag, rv.Field(i).Interface(), nv.Field(i).Interface())
	}
	add("-seed", run.Seed, now.Seed)
	add("-tasks", run.Tasks, now.Tasks)
	add("-test-timeout", run.TestTimeout, now.TestTimeout)
	return diffs
}

func writeSettings(path string, s any) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// checkSettings refuses to resume the run whose settings are in path under other settings.
func checkSettings(path string, now runSettings) error {
	var run runSettings
	if err := readSettings(path, &run); err != nil {
		return err
	}
	if diffs := run.differences(now); len(diffs) > 0 {
		return fmt.Errorf("%w: -resume continues a run under its own settings, and these differ from the run's: %s (give them as the run had them, or start a new run with -out)",
			errUsage, strings.Join(diffs, ", "))
	}
	return nil
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

// openRunFolder makes the run folder dir if it is missing and takes its lock (lockRun).
func openRunFolder(dir string) (unlock func(), err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return lockRun(dir)
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
