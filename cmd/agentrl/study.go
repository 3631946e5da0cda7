package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agenticrl/course/checkout"
	"github.com/agenticrl/course/jsonfile"
	"github.com/agenticrl/course/study"
)

func init() {
	register(command{name: "study", summary: "run the book's studies at full scale and check their committed data (study list, study run, study verify)", run: studyMain})
}

const studyUsage = `usage: agentrl study list [-check] [STUDY ...]  every study: its size, its cost, whether its data is fresh
       agentrl study run [-j N] [-shard I/N] [-force] [STUDY ...]
                                              run studies (chNN or chNN/NAME; none: every one) whose data is not fresh
       agentrl study verify [-sample K] [-max-job D] [STUDY ...]
                                              re-run K jobs picked from the commit (among those that took
                                              at most D) and compare with the data
       agentrl study job STUDY ARM SEED -work DIR
                                              run one job into DIR (what run starts, one process per job)`

func studyMain(args []string) error {
	if isHelp(args) || len(args) == 0 {
		fmt.Fprintln(stderr, studyUsage)
		if len(args) == 0 {
			return errUsage
		}
		return flag.ErrHelp
	}
	root, err := checkout.Root()
	if err != nil {
		return err
	}
	switch args[0] {
	case "list":
		return studyList(root, args[1:], os.Stdout)
	case "run":
		return studyRun(root, args[1:], os.Stdout)
	case "verify":
		return studyVerify(root, args[1:], os.Stdout)
	case "job":
		return studyJob(root, args[1:], os.Stdout)
	}
	return fmt.Errorf("%w: %swant list, run, verify or job", errUsage, unknownWhat(args))
}

// selectStudies resolves arguments (chNN or chNN/NAME) to studies; none selects every study.
func selectStudies(args []string) ([]*study.Study, error) {
	all := study.All()
	if len(args) == 0 {
		return all, nil
	}
	var out []*study.Study
	for _, a := range args {
		n := len(out)
		for _, s := range all {
			if (s.ID() == a || s.Chapter == a) && !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
		if len(out) == n {
			var ids []string
			for _, s := range all {
				ids = append(ids, s.ID())
			}
			return nil, fmt.Errorf("%w: no study %q (studies: %s)", errUsage, a, strings.Join(ids, ", "))
		}
	}
	return out, nil
}

func studyList(root string, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("study list", flag.ContinueOnError)
	fs.SetOutput(stderr)
	check := fs.Bool("check", false, "fail, naming each study and the command that re-runs it, when any study's data is missing or stale")
	if err := fs.Parse(args); err != nil {
		return usageErr(err)
	}
	studies, err := selectStudies(fs.Args())
	if err != nil {
		return err
	}
	var stale []string
	fmt.Fprintf(out, "%-16s %5s %6s %10s %-22s %s\n", "study", "arms", "seeds", "cost", "run", "data")
	for _, s := range studies {
		f := study.Check(root, s)
		cost, date := "-", "-"
		if f.Data != nil {
			cost = time.Duration(f.Data.Provenance.WallSec * float64(time.Second)).Round(time.Second).String()
			date = f.Data.Provenance.Date
		}
		state := "fresh"
		if !f.Fresh {
			state = "STALE: " + f.Reason
			stale = append(stale, fmt.Sprintf("%s: %s; re-run it with `agentrl study run %s` and commit %s", s.ID(), f.Reason, s.ID(), rel(root, s.Path(root))))
		}
		fmt.Fprintf(out, "%-16s %5d %6d %10s %-22s %s\n", s.ID(), len(s.Arms), len(s.Seeds), cost, date, state)
	}
	if len(fs.Args()) == 0 {
		if err := orphans(root); err != nil {
			stale = append(stale, err.Error())
		}
	}
	if *check && len(stale) > 0 {
		return fmt.Errorf("study data not fresh:\n  %s", strings.Join(stale, "\n  "))
	}
	return nil
}

// orphans fails on data files under notebooks/studies that no study declares: a renamed study
// must not leave data a chapter could still read.
func orphans(root string) error {
	files, _ := filepath.Glob(filepath.Join(root, "notebooks", "studies", "*", "*.json"))
	var bad []string
	for _, f := range files {
		id := filepath.Base(filepath.Dir(f)) + "/" + strings.TrimSuffix(filepath.Base(f), ".json")
		if _, ok := study.Lookup(id); !ok {
			bad = append(bad, rel(root, f))
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("data of no declared study: %s (delete it, or declare the study)", strings.Join(bad, ", "))
	}
	return nil
}

func rel(root, p string) string {
	if r, err := filepath.Rel(root, p); err == nil {
		return r
	}
	return p
}

// studyWork is where unfinished studies keep their finished jobs.
func studyWork(root string) string { return filepath.Join(root, ".cache", "studies") }

// jobState is a job of a run: pending, running (with its progress) or done.
type jobState struct {
	s     *study.Study
	j     study.Job
	frac  float64
	done  bool
	wall  float64
	start time.Time
}

func studyRun(root string, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("study run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	workers := fs.Int("j", runtime.NumCPU(), "jobs run at once, one process each")
	shard := fs.String("shard", "", "I/N: run only the jobs whose index is I modulo N (1 ≤ I ≤ N), for a scheduler's array of machines; merge by copying every shard's -work folder into one and running again")
	work := fs.String("work", studyWork(root), "folder of finished jobs: a run resumes from it")
	force := fs.Bool("force", false, "run a study whose committed data is fresh again (its finished jobs in -work are still kept)")
	if err := fs.Parse(args); err != nil {
		return usageErr(err)
	}
	shardI, shardN, err := parseShard(*shard)
	if err != nil {
		return err
	}
	if err := checkBounds(bound{flag: "-j", value: float64(*workers), lo: 1, hi: 64}); err != nil {
		return err
	}
	studies, err := selectStudies(fs.Args())
	if err != nil {
		return err
	}
	if !*force {
		studies = slices.DeleteFunc(studies, func(s *study.Study) bool {
			fresh := study.Check(root, s).Fresh
			if fresh {
				fmt.Fprintf(out, "%s: its data is fresh, nothing to run (-force runs it again)\n", s.ID())
			}
			return fresh
		})
		if len(studies) == 0 {
			return nil
		}
	}
	commit := commitOf(root)
	var todo []*jobState
	hashes := map[*study.Study][2]string{}
	for _, s := range studies {
		code, err := s.CodeHash(root)
		if err != nil {
			return err
		}
		def := s.DefinitionHash()
		hashes[s] = [2]string{def, code}
		for k, j := range s.Jobs() {
			if shardN > 0 && k%shardN != shardI-1 {
				continue
			}
			p, err := s.ReadPartial(*work, j, def, code)
			if err != nil {
				return err
			}
			if p == nil {
				todo = append(todo, &jobState{s: s, j: j})
			}
		}
	}
	fmt.Fprintf(out, "%d jobs to run (%d processes); finished jobs are kept in %s, so an interrupted run resumes\n", len(todo), *workers, *work)
	if err := runJobs(root, *work, todo, *workers); err != nil {
		return err
	}
	for _, s := range studies {
		h := hashes[s]
		prov := study.Provenance{Command: "agentrl study run " + s.ID(), Commit: commit, Machine: study.Machine(),
			Go: runtime.Version(), Workers: *workers}
		if prov.Files, err = s.CodeFiles(root); err != nil {
			return err
		}
		d, err := s.Merge(*work, h[0], h[1], prov)
		if err != nil {
			if shardN > 0 {
				fmt.Fprintf(out, "%s: shard %d/%d done; %v\n", s.ID(), shardI, shardN, err)
				continue
			}
			return err
		}
		if err := os.MkdirAll(filepath.Dir(s.Path(root)), 0o755); err != nil {
			return err
		}
		if err := jsonfile.WriteData(s.Path(root), d); err != nil {
			return err
		}
		fmt.Fprintf(out, "%s: %d jobs, %s of job time: wrote %s\n", s.ID(), len(d.Jobs), time.Duration(d.Provenance.WallSec*float64(time.Second)).Round(time.Second), rel(root, s.Path(root)))
	}
	return nil
}

func parseShard(s string) (i, n int, err error) {
	if s == "" {
		return 0, 0, nil
	}
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return 0, 0, fmt.Errorf("%w: -shard %q: want I/N with 1 ≤ I ≤ N", errUsage, s)
	}
	return i, n, nil
}

// commitOf is the checkout's commit, with "+dirty" when it has uncommitted changes.
func commitOf(root string) string {
	head, err := exec.Command("git", "-C", root, "rev-parse", "--short=12", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	c := strings.TrimSpace(string(head))
	if st, err := exec.Command("git", "-C", root, "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(st) > 0 {
		c += "+dirty"
	}
	return c
}

// runJobs runs the jobs, workers at a time, each in a process of its own (`study job`), and
// draws their progress with an estimate of the time left.
func runJobs(root, work string, todo []*jobState, workers int) error {
	if len(todo) == 0 {
		return nil
	}
	var mu sync.Mutex
	start := time.Now()
	draw := func() {
		mu.Lock()
		defer mu.Unlock()
		var done, left, doneWall float64
		var running []string
		nDone := 0
		for _, t := range todo {
			switch {
			case t.done:
				done++
				nDone++
				doneWall += t.wall
			case !t.start.IsZero():
				done += t.frac
				left += 1 - t.frac
				running = append(running, fmt.Sprintf("%s %s %.0f%%", t.s.ID(), t.j.Key(), 100*t.frac))
			default:
				left++
			}
		}
		eta := "?"
		if done > 0 {
			perJob := time.Since(start).Seconds() * float64(min(workers, len(todo))) / done
			if nDone > 0 {
				perJob = doneWall / float64(nDone)
			}
			eta = (time.Duration(left*perJob/float64(min(workers, len(todo)))) * time.Second).String()
		}
		const width = 30
		n := int(width * done / float64(len(todo)))
		fmt.Fprintf(stderr, "[%s%s] %d/%d jobs  %s elapsed, about %s left  %s\n", strings.Repeat("#", n), strings.Repeat(".", width-n),
			nDone, len(todo), time.Since(start).Round(time.Second), eta, strings.Join(running, "; "))
	}
	queue := make(chan *jobState)
	errs := make(chan error, len(todo))
	var wg sync.WaitGroup
	for range min(workers, len(todo)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for t := range queue {
				mu.Lock()
				t.start = time.Now()
				mu.Unlock()
				err := runJobProcess(work, t, &mu, draw)
				if err != nil {
					errs <- err
					continue
				}
				mu.Lock()
				t.done, t.wall = true, time.Since(t.start).Seconds()
				mu.Unlock()
				draw()
			}
		}()
	}
	stop := make(chan struct{})
	go func() { // a line every 30 s as well, so a log shows the run is alive
		ticker := time.NewTicker(30 * time.Second)
		defer ticker.Stop()
		for {
			select {
			case <-stop:
				return
			case <-ticker.C:
				draw()
			}
		}
	}()
	for _, t := range todo {
		queue <- t
	}
	close(queue)
	wg.Wait()
	close(stop)
	close(errs)
	var failed []error
	for e := range errs {
		failed = append(failed, e)
	}
	return errors.Join(failed...)
}

// jobCommand is the process that runs one job: this binary's `study job` (tests replace it).
var jobCommand = func(args ...string) (*exec.Cmd, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	return exec.Command(self, args...), nil
}

// runJobProcess runs one job as `agentrl study job` and follows its progress lines.
func runJobProcess(work string, t *jobState, mu *sync.Mutex, draw func()) error {
	cmd, err := jobCommand("study", "job", "-work", work, t.s.ID(), t.j.Arm, strconv.FormatUint(t.j.Seed, 10))
	if err != nil {
		return err
	}
	var errBuf strings.Builder
	cmd.Stderr = &errBuf
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		var d, n int
		if _, err := fmt.Sscanf(sc.Text(), "progress %d %d", &d, &n); err == nil && n > 0 {
			mu.Lock()
			t.frac = float64(d) / float64(n)
			mu.Unlock()
		}
	}
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("%s %s: %v\n%s", t.s.ID(), t.j.Key(), err, strings.TrimSpace(errBuf.String()))
	}
	return nil
}

// studyJob runs one job in this process and keeps it in the work folder.
func studyJob(root string, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("study job", flag.ContinueOnError)
	fs.SetOutput(stderr)
	work := fs.String("work", studyWork(root), "folder of finished jobs")
	if err := fs.Parse(interleave(args)); err != nil {
		return usageErr(err)
	}
	if fs.NArg() != 3 {
		return fmt.Errorf("%w: want `agentrl study job [-work DIR] STUDY ARM SEED`", errUsage)
	}
	s, ok := study.Lookup(fs.Arg(0))
	if !ok {
		return fmt.Errorf("%w: no study %q", errUsage, fs.Arg(0))
	}
	seed, err := strconv.ParseUint(fs.Arg(2), 10, 64)
	j := study.Job{Arm: fs.Arg(1), Seed: seed, Root: root}
	if err != nil || !slices.ContainsFunc(s.Jobs(), func(k study.Job) bool { return k.Key() == j.Key() }) {
		return fmt.Errorf("%w: study %s has no job %s %s", errUsage, s.ID(), fs.Arg(1), fs.Arg(2))
	}
	code, err := s.CodeHash(root)
	if err != nil {
		return err
	}
	j.Progress = func(d, n int) { fmt.Fprintf(out, "progress %d %d\n", d, n) }
	rec, err := study.RunJob(s, j)
	if err != nil {
		return err
	}
	p := study.Partial{DefinitionHash: s.DefinitionHash(), CodeHash: code, Commit: commitOf(root), Finished: study.Stamp(time.Now()), Record: rec}
	path := s.PartialPath(*work, j)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return jsonfile.Write(path, p, "")
}

// interleave moves flags ahead of positional arguments, so `study job ID ARM SEED -work DIR` parses.
func interleave(args []string) []string {
	var flags, rest []string
	for i := 0; i < len(args); i++ {
		if strings.HasPrefix(args[i], "-") {
			flags = append(flags, args[i])
			if !strings.Contains(args[i], "=") && i+1 < len(args) {
				flags = append(flags, args[i+1])
				i++
			}
			continue
		}
		rest = append(rest, args[i])
	}
	return append(flags, rest...)
}

// studyVerify re-runs a sample of jobs of fresh studies and requires the committed results.
func studyVerify(root string, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("study verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sample := fs.Int("sample", 1, "jobs to re-run, picked from the commit hash")
	maxJob := fs.Duration("max-job", 0, "pick only jobs whose committed wall time is at most this (0: any), to bound the check's time")
	if err := fs.Parse(args); err != nil {
		return usageErr(err)
	}
	studies, err := selectStudies(fs.Args())
	if err != nil {
		return err
	}
	type pick struct {
		s *study.Study
		d *study.Data
		j study.Job
	}
	var all []pick
	for _, s := range studies {
		if !study.Check(root, s).Fresh {
			return fmt.Errorf("study %s is not fresh: run `agentrl study list` first", s.ID())
		}
		d, err := study.Load(root, s.ID())
		if err != nil {
			return err
		}
		for _, j := range s.Jobs() {
			if *maxJob == 0 || time.Duration(d.Job(j.Arm, j.Seed).WallSec*float64(time.Second)) <= *maxJob {
				all = append(all, pick{s, d, j})
			}
		}
	}
	if len(all) == 0 && *sample > 0 {
		return fmt.Errorf("no job of these studies took at most -max-job %v when its data was made", *maxJob)
	}
	h := fnv.New64a()
	h.Write([]byte(strings.TrimSuffix(commitOf(root), "+dirty")))
	x := h.Sum64()
	for k := 0; k < *sample && len(all) > 0; k++ {
		i := int(x % uint64(len(all)))
		x = x*6364136223846793005 + 1442695040888963407
		p := all[i]
		all = slices.Delete(all, i, i+1)
		p.j.Root = root
		start := time.Now()
		rec, err := study.RunJob(p.s, p.j)
		if err != nil {
			return err
		}
		got, _ := json.Marshal(rec.Result)
		want, _ := json.Marshal(p.d.Job(p.j.Arm, p.j.Seed).Result)
		if string(got) != string(want) {
			return fmt.Errorf("study %s, job %s: the re-run differs from the committed data (%d and %d bytes of results): the study is not deterministic on this machine, or its data was not made by this code",
				p.s.ID(), p.j.Key(), len(got), len(want))
		}
		fmt.Fprintf(out, "study %s, job %s: re-run in %s, identical to the committed data\n", p.s.ID(), p.j.Key(), time.Since(start).Round(time.Second))
	}
	return nil
}
