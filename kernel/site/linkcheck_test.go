package site

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLinks checks every page of the exported fixture course.
func TestLinks(t *testing.T) {
	out, _ := buildFixtures(t)
	problems, err := CheckLinks(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
	pages, _ := filepath.Glob(filepath.Join(out, "*.html"))
	zh, _ := filepath.Glob(filepath.Join(out, "zh", "*.html"))
	if len(pages) < 4 || len(zh) < 2 {
		t.Errorf("only %d English and %d Chinese pages checked", len(pages), len(zh))
	}
}

// TestCheckLinksFindsProblems makes sure the checker itself catches what it should.
func TestCheckLinksFindsProblems(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string // "" when the site is fine
	}{
		{"fine", map[string]string{
			"index.html": `<a href="a.html#x">a</a><a href="https://example.org/paper">paper</a><link rel="stylesheet" href="s.css"><a href="#top" id="top">top</a>`,
			"a.html":     `<h2 id="x">x</h2><script src="js/app.js"></script><img src="data:image/png;base64,AAAA">`,
			"s.css":      `@font-face { src: url(f/a.woff2) format("woff2"), url('data:font/woff2;base64,AA'); }`,
			"f/a.woff2":  "",
			"js/app.js":  "",
		}, ""},
		{"missing page", map[string]string{"index.html": `<a href="gone.html">x</a>`}, "no such file gone.html"},
		{"missing anchor", map[string]string{"index.html": `<a href="#nowhere">x</a>`}, `no id "nowhere"`},
		{"external script", map[string]string{"index.html": `<script src="https://cdn.example/x.js"></script>`}, "loads from outside the site"},
		{"protocol-relative stylesheet", map[string]string{"index.html": `<link rel="stylesheet" href="//cdn.example/x.css">`}, "loads from outside the site"},
		{"outside the site", map[string]string{"index.html": `<a href="../secret.html">x</a>`}, "points outside the site"},
		{"missing font", map[string]string{"s.css": `src: url(fonts/x.woff2)`}, "no such file fonts/x.woff2"},
		{"external font", map[string]string{"s.css": `@import "https://fonts.example/css";`}, "loads from outside the site"},
	} {
		root := t.TempDir()
		for name, body := range tc.files {
			p := filepath.Join(root, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		problems, err := CheckLinks(root)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		got := strings.Join(problems, "\n")
		switch {
		case tc.want == "" && got != "":
			t.Errorf("%s: unexpected problems:\n%s", tc.name, got)
		case tc.want != "" && !strings.Contains(got, tc.want):
			t.Errorf("%s: got %q, want a problem containing %q", tc.name, got, tc.want)
		}
	}
}
