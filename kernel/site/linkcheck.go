package site

import (
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"golang.org/x/net/html"
)

// CheckLinks checks an exported site offline: every internal link, script, stylesheet and image of
// every page must point at a file of the site (and, with a #fragment, at an id on that page), no
// page may load a script or stylesheet from outside the site, and every url() in the site's CSS
// must resolve to a file of the site. Links to other web sites from prose are allowed. It returns
// one line per problem, sorted.
func CheckLinks(root string) ([]string, error) {
	pages := map[string]map[string]bool{} // page path (slash, relative to root) -> ids on it
	type ref struct {
		from, tag, attr, value string
		loads                  bool // the browser fetches it to render the page
	}
	var refs []ref
	var cssFiles []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		switch path.Ext(rel) {
		case ".css":
			cssFiles = append(cssFiles, rel)
		case ".html":
			f, err := os.Open(p)
			if err != nil {
				return err
			}
			defer f.Close()
			doc, err := html.Parse(f)
			if err != nil {
				return fmt.Errorf("%s: %w", rel, err)
			}
			ids := map[string]bool{}
			pages[rel] = ids
			for n := range doc.Descendants() {
				if n.Type != html.ElementNode {
					continue
				}
				attr := map[string]string{}
				for _, a := range n.Attr {
					attr[a.Key] = a.Val
				}
				if id, ok := attr["id"]; ok {
					ids[id] = true
				}
				if name, ok := attr["name"]; ok && n.Data == "a" {
					ids[name] = true
				}
				switch n.Data {
				case "a":
					if h, ok := attr["href"]; ok {
						refs = append(refs, ref{rel, "a", "href", h, false})
					}
				case "link":
					if h, ok := attr["href"]; ok {
						refs = append(refs, ref{rel, "link", "href", h, true})
					}
				case "script", "img", "iframe", "source", "video", "audio", "embed":
					if s, ok := attr["src"]; ok {
						refs = append(refs, ref{rel, n.Data, "src", s, true})
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("checking links under %s: %w", root, err)
	}
	var problems []string
	for _, r := range refs {
		u, err := url.Parse(strings.TrimSpace(r.value))
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: <%s %s=%q>: %v", r.from, r.tag, r.attr, r.value, err))
			continue
		}
		if u.Scheme != "" || u.Host != "" {
			if r.loads && u.Scheme != "data" {
				problems = append(problems, fmt.Sprintf("%s: <%s %s=%q> loads from outside the site", r.from, r.tag, r.attr, r.value))
			}
			continue // a link to another site
		}
		target := r.from
		if u.Path != "" {
			target = path.Join(path.Dir(r.from), u.Path)
		}
		if target == ".." || strings.HasPrefix(target, "../") {
			problems = append(problems, fmt.Sprintf("%s: <%s %s=%q> points outside the site", r.from, r.tag, r.attr, r.value))
			continue
		}
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(target))); err != nil {
			problems = append(problems, fmt.Sprintf("%s: <%s %s=%q>: no such file %s", r.from, r.tag, r.attr, r.value, target))
			continue
		}
		if u.Fragment != "" {
			ids, isPage := pages[target]
			if !isPage || !ids[u.Fragment] {
				problems = append(problems, fmt.Sprintf("%s: <%s %s=%q>: no id %q in %s", r.from, r.tag, r.attr, r.value, u.Fragment, target))
			}
		}
	}
	for _, css := range cssFiles {
		ps, err := checkCSS(root, css)
		if err != nil {
			return nil, err
		}
		problems = append(problems, ps...)
	}
	sort.Strings(problems)
	return problems, nil
}

var cssURL = regexp.MustCompile(`url\(\s*['"]?([^'")]+)['"]?\s*\)|@import\s+['"]([^'"]+)['"]`)

// checkCSS checks the url() and @import references of one stylesheet.
func checkCSS(root, css string) ([]string, error) {
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(css)))
	if err != nil {
		return nil, err
	}
	var problems []string
	for _, m := range cssURL.FindAllStringSubmatch(string(b), -1) {
		ref := m[1] + m[2]
		u, err := url.Parse(ref)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: url(%s): %v", css, ref, err))
			continue
		}
		if u.Scheme == "data" {
			continue
		}
		if u.Scheme != "" || u.Host != "" {
			problems = append(problems, fmt.Sprintf("%s: url(%s) loads from outside the site", css, ref))
			continue
		}
		target := path.Join(path.Dir(css), u.Path)
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(target))); err != nil {
			problems = append(problems, fmt.Sprintf("%s: url(%s): no such file %s", css, ref, target))
		}
	}
	return problems, nil
}
