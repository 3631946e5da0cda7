package main

import (
	"flag"
	"fmt"

	"github.com/agenticrl/course/checkout"
	"github.com/agenticrl/course/kernel/sources"
)

func init() {
	bookCommands["sources"] = command{name: "sources", summary: "check the citations against the source ledger (check), or regenerate the References notebooks (build)", run: bookSources}
}

const sourcesUsage = `usage: agentrl book sources check|build

The book's external sources live in the ledger notebooks/sources.tsv (one row per source: key,
authors, title, venue, date, address, the date it was inspected and what was checked). Chapters
cite an entry with a markdown link to the References notebook: [Ziegler et al., 2019](references.ipynb#ziegler2019).

check   fails, naming the file, cell and key of each problem, when a citation names no entry or
        not its year, an entry is cited nowhere, an English sentence says "reported" or names a
        work by "et al." (or a paragraph of a "(reported)" section) without a citation, a
        Chinese cell cites other keys than its English one, or a References notebook is out of
        date.
build   regenerates notebooks/references.ipynb and notebooks/zh/references.ipynb from the
        ledger and the citations.`

func bookSources(args []string) error {
	fs := flag.NewFlagSet("book sources", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprintln(stderr, sourcesUsage) }
	if err := fs.Parse(args); err != nil {
		return usageErr(err)
	}
	if fs.NArg() != 1 || (fs.Arg(0) != "check" && fs.Arg(0) != "build") {
		return fmt.Errorf("%w: book sources takes check or build\n%s", errUsage, sourcesUsage)
	}
	root, err := checkout.Root()
	if err != nil {
		return err
	}
	b, err := sources.Load(root)
	if err != nil {
		return err
	}
	if fs.Arg(0) == "build" {
		changed, err := b.Build()
		for _, c := range changed {
			fmt.Fprintln(stderr, "wrote", c)
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "book sources build: %d source(s), %d file(s) changed\n", len(b.Ledger.Entries), len(changed))
		return nil
	}
	problems, err := b.Check()
	if err != nil {
		return err
	}
	for _, p := range problems {
		fmt.Fprintln(stderr, p)
	}
	if len(problems) > 0 {
		return fmt.Errorf("book sources check: %d problem(s)", len(problems))
	}
	inspected := 0
	for _, e := range b.Ledger.Entries {
		if e.IsInspected() {
			inspected++
		}
	}
	fmt.Fprintf(stderr, "book sources check: %d source(s), %d inspected; every citation resolves\n", len(b.Ledger.Entries), inspected)
	return nil
}
