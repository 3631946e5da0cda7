package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenticrl/course/kernel/notebook"
)

// TestBookZhRoundTrip runs an author's cycle on a checkout of one chapter: sync writes the Chinese
// notebook and a worklist, check fails until the worklist is translated and applied, and after the
// English chapter changes (an output, then a paragraph) check fails again, naming the cell, until
// sync and apply bring the edition back.
func TestBookZhRoundTrip(t *testing.T) {
	root := t.TempDir()
	t.Setenv("AGENTRL_ROOT", root)
	nbs := filepath.Join(root, "notebooks")
	os.MkdirAll(filepath.Join(nbs, "zh"), 0o755)
	os.WriteFile(filepath.Join(nbs, "zh", "glossary.tsv"), []byte("reward\t奖励\n"), 0o644)
	en := `{"cells": [
 {"cell_type": "markdown", "id": "a", "metadata": {}, "source": "# Chapter 1: Rewards\n\nA reward $r_t$ per step."},
 {"cell_type": "code", "id": "b", "metadata": {}, "execution_count": 1, "source": "fmt.Println(1)",
  "outputs": [{"output_type": "stream", "name": "stdout", "text": "1\n"}]}
], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`
	enPath := filepath.Join(nbs, "ch01_rewards.ipynb")
	if err := os.WriteFile(enPath, []byte(en), 0o644); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	old := stderr
	stderr = &log
	defer func() { stderr = old }()
	run := func(args ...string) error {
		log.Reset()
		return bookMain(append([]string{"zh"}, args...))
	}

	if err := run("check"); err == nil || !strings.Contains(log.String(), "no Chinese notebook") {
		t.Fatalf("check before sync: %v\n%s", err, log.String())
	}
	if err := run("sync"); err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(root, ".cache", "zh", "ch01_rewards.todo.md")
	if !strings.Contains(log.String(), "cell 1 (a, new)") || !strings.Contains(log.String(), work) {
		t.Fatalf("sync does not name the cell and its worklist:\n%s", log.String())
	}
	if err := run("check"); err == nil || !strings.Contains(log.String(), "cell 1 (a): not translated") {
		t.Fatalf("check of an untranslated edition: %v\n%s", err, log.String())
	}
	// The author translates the worklist: everything after the English comment.
	translate := func(zh string) {
		t.Helper()
		b, err := os.ReadFile(work)
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		i := strings.LastIndex(s, "\n-->\n")
		if err := os.WriteFile(work, []byte(s[:i+5]+zh+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := run("apply", "ch01", work); err != nil {
			t.Fatalf("apply: %v\n%s", err, log.String())
		}
	}
	// A translation that drops the glossary's term is refused, and nothing is written.
	before, _ := os.ReadFile(filepath.Join(nbs, "zh", "ch01_rewards.ipynb"))
	b, _ := os.ReadFile(work)
	os.WriteFile(work, []byte(strings.Replace(string(b), "A reward $r_t$ per step.", "每步一个回报 $r_t$。", 1)), 0o644)
	if err := run("apply", "ch01", work); err == nil || !strings.Contains(err.Error(), `lacks "奖励"`) {
		t.Fatalf("apply of a translation against the glossary: %v", err)
	}
	if after, _ := os.ReadFile(filepath.Join(nbs, "zh", "ch01_rewards.ipynb")); !bytes.Equal(before, after) {
		t.Error("a refused apply changed the Chinese notebook")
	}
	translate("# 第 1 章：奖励\n\n每步一个奖励 $r_t$。")
	if err := run("check"); err != nil {
		t.Fatalf("check after apply: %v\n%s", err, log.String())
	}

	// The English output changes: check names the cell; sync carries it over, nothing to translate.
	nb, _ := notebook.Read(enPath)
	nb.Cells[1].Outputs[0].Text = "2\n"
	nb.Write(enPath)
	if err := run("check"); err == nil || !strings.Contains(log.String(), "cell 2 (b): outputs") {
		t.Fatalf("check after an English output changed: %v\n%s", err, log.String())
	}
	if err := run("sync"); err != nil || !strings.Contains(log.String(), "in sync") {
		t.Fatalf("sync: %v\n%s", err, log.String())
	}
	if _, err := os.Stat(work); err == nil {
		t.Error("an in-sync chapter keeps an old worklist")
	}
	if err := run("check"); err != nil {
		t.Fatalf("check after sync: %v\n%s", err, log.String())
	}

	// The English prose changes: the cell is stale until it is translated again.
	nb.Cells[0].Source += " Rewards are numbers."
	nb.Write(enPath)
	if err := run("check"); err == nil || !strings.Contains(log.String(), "cell 1 (a): stale") {
		t.Fatalf("check after an English paragraph changed: %v\n%s", err, log.String())
	}
	if err := run("sync"); err != nil || !strings.Contains(log.String(), "cell 1 (a, stale)") {
		t.Fatalf("sync: %v\n%s", err, log.String())
	}
	translate("# 第 1 章：奖励\n\n每步一个奖励 $r_t$。奖励是数。")
	if err := run("check"); err != nil {
		t.Fatalf("check after the new translation: %v\n%s", err, log.String())
	}
	// A Chinese notebook without an English one fails the whole-edition check.
	os.WriteFile(filepath.Join(nbs, "zh", "ch02_gone.ipynb"), []byte(en), 0o644)
	if err := run("check"); err == nil || !strings.Contains(log.String(), "no English notebook of that name") {
		t.Fatalf("check with an orphan: %v\n%s", err, log.String())
	}
}
