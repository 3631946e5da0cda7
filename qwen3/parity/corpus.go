package parity

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"unicode/utf8"
)

// Corpus is real code and prose read from the local machine.
type Corpus struct {
	Docs  []string // one document per file, cut to maxDocBytes at a line end
	Files []string // the file each document came from
	Bytes int      // total size of Docs
}

// maxDocBytes keeps any one file from dominating the corpus.
const maxDocBytes = 48 << 10

// source is one family of local files and the share of the corpus it may fill.
type source struct {
	name   string
	roots  []string
	keep   func(path string) bool
	budget int
}

// LocalCorpus assembles at least minBytes of text from freely licensed files on this machine,
// in a fixed order, so that the same machine always yields the same corpus: prose (the texts
// under /usr/share/common-licenses and plain-text package documentation under /usr/share/doc),
// Python's standard library (/usr/lib/python3*, when installed) and Go's standard library
// (GOROOT/src, always present where Go runs), which also fills whatever the others leave short.
func LocalCorpus(minBytes int) (*Corpus, error) {
	goroot := goRoot()
	pythons, _ := filepath.Glob("/usr/lib/python3.[0-9]*")
	sort.Strings(pythons)
	if len(pythons) > 1 {
		pythons = pythons[len(pythons)-1:]
	}
	proseExt := func(p string) bool {
		base := strings.ToLower(filepath.Base(p))
		return strings.HasPrefix(base, "readme") || strings.HasSuffix(base, ".md") ||
			strings.HasSuffix(base, ".txt") || strings.HasSuffix(base, ".rst") || base == "copyright"
	}
	sources := []source{
		{"licenses", []string{"/usr/share/common-licenses"}, func(string) bool { return true }, minBytes / 8},
		{"docs", []string{"/usr/share/doc"}, proseExt, minBytes / 4},
		{"python", pythons, func(p string) bool { return strings.HasSuffix(p, ".py") && !strings.Contains(p, "/test") }, minBytes / 4},
		{"go", []string{filepath.Join(goroot, "src")}, func(p string) bool { return strings.HasSuffix(p, ".go") }, 0},
	}
	c := &Corpus{}
	seen := map[string]bool{}
	for _, s := range sources {
		budget := s.budget
		if budget == 0 { // the last source fills up to the target
			budget = minBytes - c.Bytes + maxDocBytes
		}
		used := 0
		for _, root := range s.roots {
			err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
				if err != nil {
					return nil // unreadable parts of the tree are skipped
				}
				if used >= budget {
					return fs.SkipAll
				}
				if d.IsDir() {
					if name := d.Name(); name != filepath.Base(root) && (name == "testdata" || name == "__pycache__" || strings.HasPrefix(name, ".")) {
						return fs.SkipDir
					}
					return nil
				}
				if !d.Type().IsRegular() || !s.keep(path) {
					return nil
				}
				doc, ok := readDoc(path)
				if !ok || seen[doc] {
					return nil
				}
				seen[doc] = true
				c.Docs = append(c.Docs, doc)
				c.Files = append(c.Files, path)
				c.Bytes += len(doc)
				used += len(doc)
				return nil
			})
			if err != nil {
				return nil, fmt.Errorf("corpus: walk %s: %w", root, err)
			}
		}
	}
	if c.Bytes < minBytes {
		return nil, fmt.Errorf("corpus: only %d bytes of local text found (want %d); is GOROOT (%s) readable?", c.Bytes, minBytes, goroot)
	}
	return c, nil
}

// readDoc reads a text file, cut at a line end before maxDocBytes; binary and non-UTF-8 files
// are refused (the reference tokenizer takes only valid strings).
func readDoc(path string) (string, bool) {
	data, err := os.ReadFile(path)
	if err != nil || len(data) == 0 || !utf8.Valid(data) || strings.IndexByte(string(data), 0) >= 0 {
		return "", false
	}
	if len(data) > maxDocBytes {
		cut := strings.LastIndexByte(string(data[:maxDocBytes]), '\n')
		if cut <= 0 {
			return "", false
		}
		data = data[:cut+1]
	}
	return string(data), true
}

// goRoot asks the go command, which knows the toolchain actually in use, and falls back to the
// root this binary was built with.
func goRoot() string {
	if out, err := exec.Command("go", "env", "GOROOT").Output(); err == nil {
		if s := strings.TrimSpace(string(out)); s != "" {
			return s
		}
	}
	return runtime.GOROOT()
}

// Chunks cuts docs at line ends into pieces of at most size bytes (a longer line is a piece of
// its own), the length of a typical chat message or prompt section.
func Chunks(docs []string, size int) []string {
	var out []string
	for _, d := range docs {
		for len(d) > 0 {
			cut := len(d)
			if cut > size {
				if i := strings.LastIndexByte(d[:size], '\n'); i >= 0 {
					cut = i + 1
				} else if i := strings.IndexByte(d, '\n'); i >= 0 {
					cut = i + 1
				}
			}
			out = append(out, d[:cut])
			d = d[cut:]
		}
	}
	return out
}
