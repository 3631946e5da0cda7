package sources

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/agenticrl/course/kernel/notebook"
)

// The ledger and the READMEs, relative to a checkout's root.
const (
	LedgerPath = "notebooks/sources.tsv"
	readmeEn   = "README.md"
	readmeZh   = "README.zh-CN.md"
)

// Book is a checkout's ledger with the docs that cite it: each edition's notebooks, then its README.
type Book struct {
	Root   string
	Ledger *Ledger
	En, Zh []*Doc
}

// Load reads the ledger, the notebooks of both editions and the READMEs of the checkout at root.
func Load(root string) (*Book, error) {
	l, err := ReadLedger(filepath.Join(root, LedgerPath))
	if err != nil {
		return nil, err
	}
	b := &Book{Root: root, Ledger: l}
	for _, ed := range []struct {
		dir, readme string
		docs        *[]*Doc
	}{{"notebooks", readmeEn, &b.En}, {filepath.Join("notebooks", "zh"), readmeZh, &b.Zh}} {
		if *ed.docs, err = ReadNotebooks(root, filepath.Join(root, ed.dir)); err != nil {
			return nil, err
		}
		text, err := os.ReadFile(filepath.Join(root, ed.readme))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		*ed.docs = append(*ed.docs, &Doc{File: ed.readme, Cells: []Cell{newCell("", 0, string(text))}})
	}
	if len(b.En) == 0 || len(b.En) != len(b.Zh) {
		return nil, fmt.Errorf("%s: %d English docs and %d Chinese ones: the editions must pair up", root, len(b.En), len(b.Zh))
	}
	return b, nil
}

// Generated returns the References notebook of each edition, by path relative to the root.
func (b *Book) Generated() (map[string][]byte, error) {
	meta, err := notebook.Read(filepath.Join(b.Root, b.En[0].File)) // its metadata: the course's kernel
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	for _, ed := range []struct {
		name, path string
		docs       []*Doc
	}{{"en", filepath.Join("notebooks", File), b.En}, {"zh", filepath.Join("notebooks", "zh", File), b.Zh}} {
		data, err := References(b.Ledger, ed.docs, ed.name, meta).Marshal()
		if err != nil {
			return nil, err
		}
		out[ed.path] = data
	}
	return out, nil
}

// Check is package Check on the book, plus a problem for each References notebook that is not
// what Generated makes.
func (b *Book) Check() ([]Problem, error) {
	ps := Check(b.Ledger, b.En, b.Zh)
	gen, err := b.Generated()
	if err != nil {
		return nil, err
	}
	for _, path := range sortedKeys(gen) {
		old, err := os.ReadFile(filepath.Join(b.Root, path))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		if !bytes.Equal(old, gen[path]) {
			ps = append(ps, Problem{File: path, What: "not what the ledger and the citations make: run `agentrl book sources build`"})
		}
	}
	return ps, nil
}

// Build writes the References notebooks that changed and returns their paths.
func (b *Book) Build() ([]string, error) {
	gen, err := b.Generated()
	if err != nil {
		return nil, err
	}
	var changed []string
	for _, path := range sortedKeys(gen) {
		full := filepath.Join(b.Root, path)
		if old, err := os.ReadFile(full); err == nil && bytes.Equal(old, gen[path]) {
			continue
		}
		tmp := full + ".tmp"
		if err := os.WriteFile(tmp, gen[path], 0o644); err != nil {
			return changed, err
		}
		if err := os.Rename(tmp, full); err != nil {
			return changed, err
		}
		changed = append(changed, path)
	}
	return changed, nil
}
