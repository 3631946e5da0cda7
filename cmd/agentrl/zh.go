package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agenticrl/course/checkout"
	"github.com/agenticrl/course/kernel/notebook"
	"github.com/agenticrl/course/kernel/translate"
)

func init() {
	bookCommands["zh"] = command{name: "zh", summary: "keep the Chinese edition in sync (sync, apply, check)", run: bookZh}
}

const zhUsage = `usage: agentrl book zh sync [chNN ...]          carry code and outputs over, list the cells to translate
       agentrl book zh apply CHAPTER FILE ...     write translated cells from a worklist into the Chinese notebook
       agentrl book zh check [chNN ...]          fail unless the Chinese edition matches the English one

The Chinese edition is notebooks/zh/ (same file names); its glossary is notebooks/zh/glossary.tsv.
After changing a chapter: sync it, translate the cells in the worklist it writes (.cache/zh/), apply.`

// zhPaths are the folders of the two editions and the glossary of a checkout.
type zhPaths struct{ en, zh, glossary, work string }

func zhDirs() (zhPaths, error) {
	root, err := checkout.Root()
	if err != nil {
		return zhPaths{}, err
	}
	en := filepath.Join(root, "notebooks")
	zh := filepath.Join(en, "zh")
	return zhPaths{en: en, zh: zh, glossary: filepath.Join(zh, "glossary.tsv"), work: filepath.Join(root, ".cache", "zh")}, nil
}

func bookZh(args []string) error {
	if isHelp(args) {
		fmt.Fprintln(stderr, zhUsage)
		return flag.ErrHelp
	}
	if len(args) == 0 {
		return fmt.Errorf("%w: a subcommand is required\n%s", errUsage, zhUsage)
	}
	p, err := zhDirs()
	if err != nil {
		return err
	}
	switch args[0] {
	case "sync":
		return zhSync(p, args[1:])
	case "apply":
		return zhApply(p, args[1:])
	case "check":
		return zhCheck(p, args[1:])
	}
	return fmt.Errorf("%w: unknown subcommand %q\n%s", errUsage, args[0], zhUsage)
}

// zhChapters returns the English notebooks the prefixes select (all when none).
func zhChapters(p zhPaths, prefixes []string) ([]string, error) {
	for _, a := range prefixes {
		if strings.HasPrefix(a, "-") {
			return nil, fmt.Errorf("%w: unknown flag %s\n%s", errUsage, a, zhUsage)
		}
	}
	return selectNotebooks(p.en, prefixes)
}

// readZh reads the Chinese twin of an English notebook; nil when there is none yet.
func readZh(p zhPaths, enPath string) (*notebook.Notebook, error) {
	nb, err := notebook.Read(filepath.Join(p.zh, filepath.Base(enPath)))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return nb, err
}

func zhSync(p zhPaths, args []string) error {
	paths, err := zhChapters(p, args)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(p.zh, 0o755); err != nil {
		return err
	}
	left := 0
	for _, path := range paths {
		en, err := notebook.Read(path)
		if err != nil {
			return err
		}
		old, err := readZh(p, path)
		if err != nil {
			return err
		}
		zh, todo, dropped := translate.Sync(en, old)
		name := filepath.Base(path)
		if err := zh.Write(filepath.Join(p.zh, name)); err != nil {
			return err
		}
		if len(dropped) > 0 {
			fmt.Fprintf(stderr, "%s: dropped cells no longer in the English: %s\n", name, strings.Join(dropped, ", "))
		}
		work := filepath.Join(p.work, strings.TrimSuffix(name, ".ipynb")+".todo.md")
		if len(todo) == 0 {
			os.Remove(work) // an old worklist would invite applying it again
			fmt.Fprintf(stderr, "%s: in sync\n", name)
			continue
		}
		left += len(todo)
		if err := os.MkdirAll(p.work, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(work, []byte(translate.WriteWorklist(todo)), 0o644); err != nil {
			return err
		}
		var ids []string
		for _, t := range todo {
			kind := "new"
			if t.Stale {
				kind = "stale"
			}
			ids = append(ids, fmt.Sprintf("cell %d (%s, %s)", t.Cell, t.ID, kind))
		}
		fmt.Fprintf(stderr, "%s: %d cell(s) to translate: %s\n  worklist: %s\n  then: agentrl book zh apply %s %s\n",
			name, len(todo), strings.Join(ids, ", "), work, strings.SplitN(name, "_", 2)[0], work)
	}
	if left > 0 {
		fmt.Fprintf(stderr, "book zh sync: code and outputs carried over; %d cell(s) left to translate\n", left)
	} else {
		fmt.Fprintf(stderr, "book zh sync: %d notebook(s) in sync\n", len(paths))
	}
	return nil
}

func zhApply(p zhPaths, args []string) error {
	if len(args) < 2 {
		return fmt.Errorf("%w: apply needs a chapter and at least one worklist\n%s", errUsage, zhUsage)
	}
	paths, err := zhChapters(p, args[:1])
	if err != nil {
		return err
	}
	if len(paths) != 1 {
		return fmt.Errorf("%w: %q names %d notebooks; name one chapter", errUsage, args[0], len(paths))
	}
	en, err := notebook.Read(paths[0])
	if err != nil {
		return err
	}
	zh, err := readZh(p, paths[0])
	if err != nil {
		return err
	}
	if zh == nil {
		return fmt.Errorf("%s has no Chinese notebook yet: run `agentrl book zh sync %s` first", filepath.Base(paths[0]), args[0])
	}
	var blocks []translate.Block
	for _, f := range args[1:] {
		text, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		bs, err := translate.ParseWorklist(string(text))
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		blocks = append(blocks, bs...)
	}
	g, err := translate.ReadGlossary(p.glossary)
	if err != nil {
		return err
	}
	if err := translate.Apply(en, zh, blocks, g); err != nil {
		return fmt.Errorf("%s: %w", filepath.Base(paths[0]), err)
	}
	if err := zh.Write(filepath.Join(p.zh, filepath.Base(paths[0]))); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "%s: %d cell(s) translated\n", filepath.Base(paths[0]), len(blocks))
	return nil
}

func zhCheck(p zhPaths, args []string) error {
	paths, err := zhChapters(p, args)
	if err != nil {
		return err
	}
	g, err := translate.ReadGlossary(p.glossary)
	if err != nil {
		return err
	}
	bad := 0
	for _, path := range paths {
		name := filepath.Base(path)
		en, err := notebook.Read(path)
		if err != nil {
			return err
		}
		zh, err := readZh(p, path)
		if err != nil {
			return err
		}
		if zh == nil {
			fmt.Fprintf(stderr, "FAIL %s: no Chinese notebook (%s): run `agentrl book zh sync`\n", name, filepath.Join(p.zh, name))
			bad++
			continue
		}
		ps := translate.Check(en, zh, g)
		if len(ps) == 0 {
			fmt.Fprintf(stderr, "ok   %s\n", name)
			continue
		}
		bad++
		fmt.Fprintf(stderr, "FAIL %s: %d problem(s)\n", name, len(ps))
		for _, pr := range ps {
			fmt.Fprintf(stderr, "  %s\n", pr)
		}
	}
	if len(args) == 0 { // the whole edition: nothing may be left without its English
		zhs, err := notebook.Find(p.zh)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		for _, z := range zhs {
			if _, err := os.Stat(filepath.Join(p.en, filepath.Base(z))); err != nil {
				fmt.Fprintf(stderr, "FAIL %s: no English notebook of that name\n", z)
				bad++
			}
		}
	}
	if bad > 0 {
		return fmt.Errorf("%d of %d Chinese notebook(s) out of sync (`agentrl book zh sync` lists the cells to translate)", bad, len(paths))
	}
	fmt.Fprintf(stderr, "book zh check: %d Chinese notebook(s) match their English ones\n", len(paths))
	return nil
}
