package site

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"html"
	"os"
	"regexp"
	"sort"
	"strings"

	"github.com/agenticrl/course/kernel/notebook"
)

// assetFiles collects files that outputs move out of the pages, keyed by their path under the
// site root, so that identical content is written once.
type assetFiles map[string][]byte

// chartLibrary is the echarts bundle that the notebooks' charts inline: the file of the npm
// package the course installs, byte for byte.
type chartLibrary struct {
	js      string // as the file holds it
	escaped string // as a chart inlines it inside <script>: "</script" written "<\/script"
	path    string // where the site serves it
}

var echartsVersion = regexp.MustCompile(`\bversion\s*=\s*"(\d+\.\d+\.\d+)"`)

func loadChartLibrary(file string) (*chartLibrary, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("echarts library missing (%v): run `make setup`", err)
	}
	js := string(b)
	name := "echarts.min.js"
	if v := echartsVersion.FindStringSubmatch(js); v != nil {
		name = "echarts-" + v[1] + ".min.js"
	}
	return &chartLibrary{js: js, escaped: strings.ReplaceAll(js, "</script", `<\/script`), path: "assets/lib/" + name}, nil
}

var (
	// HTML ends a script's text at the first "</script", whatever the script says; matching
	// lazily to it is how a browser splits it too.
	scriptElement = regexp.MustCompile(`(?is)<script\b([^>]*)>(.*?)</script\s*>`)
	srcAttribute  = regexp.MustCompile(`(?i)\bsrc\s*=`)
	// What may stand before the library in its script: an "only if not loaded yet" guard and the
	// function that hides require.js's define/exports/module from the UMD bundle.
	libraryOpening = regexp.MustCompile(`^\s*(if\s*\(\s*typeof\s+window\.echarts\s*===?\s*["']undefined["']\s*\)\s*\{\s*)?(\(\s*function\s*\(\s*define\s*,\s*exports\s*,\s*module\s*\)\s*\{\s*)?$`)
	// What must follow the library, by whether a guard and a wrapper opened before it.
	libraryClosing = [2][2]*regexp.Regexp{
		{regexp.MustCompile(`^\s*`), regexp.MustCompile(`^\s*` + wrapperClosing)},
		{regexp.MustCompile(`^\s*\}`), regexp.MustCompile(`^\s*` + wrapperClosing + `\}`)},
	}
	ansiEscape = regexp.MustCompile("\x1b\\[[0-9;?]*[A-Za-z]")
)

const wrapperClosing = `\}\s*\)\s*\.call\s*\(\s*(?:window|this)\s*\)\s*;?\s*`

// largeScript is the size above which an inline script that stays in a page is reported: it
// is most likely a library the export did not recognise.
const largeScript = 100_000

// outputRenderer renders the outputs of one page.
type outputRenderer struct {
	lib       *chartLibrary
	libLoaded bool // the page already has a <script src> for lib
	assets    assetFiles
	md        *markdownRenderer
	shared    int // scripts whose inlined library now comes from the shared file
	unshared  int // large inline scripts left as they were
}

// shareLibrary replaces the echarts bundle inlined in an HTML output's scripts by one shared
// file. The library part of a script (with its guard and require.js wrapper, which a page
// without require.js does not need) is cut out; the page loads the file with a <script src> in
// its place, once per page as the guard would, and the chart's own code stays inline after it.
// Only the library at the very start of a script is cut, so no code of the script moves
// before or after it. A script that holds anything else stays as recorded.
func (r *outputRenderer) shareLibrary(h string) string {
	return scriptElement.ReplaceAllStringFunc(h, func(el string) string {
		m := scriptElement.FindStringSubmatch(el)
		attrs, js := m[1], m[2]
		if srcAttribute.MatchString(attrs) {
			return el
		}
		lib := r.lib.escaped
		i := strings.Index(js, lib)
		if i < 0 {
			lib = r.lib.js
			i = strings.Index(js, lib)
		}
		if i < 0 {
			if len(js) > largeScript {
				r.unshared++
			}
			return el
		}
		open := libraryOpening.FindStringSubmatch(js[:i])
		if open == nil {
			r.unshared++
			return el
		}
		after := js[i+len(lib):]
		end := libraryClosing[b2i(open[1] != "")][b2i(open[2] != "")].FindStringIndex(after)
		if end == nil {
			r.unshared++
			return el
		}
		rest := after[end[1]:]
		r.shared++
		r.assets[r.lib.path] = []byte(r.lib.js)
		var b strings.Builder
		if !r.libLoaded {
			b.WriteString(`<script src="` + r.lib.path + `"></script>`)
			r.libLoaded = true
		}
		if strings.TrimSpace(rest) != "" {
			b.WriteString("<script" + attrs + ">" + rest + "</script>")
		}
		return b.String()
	})
}

// render renders a code cell's recorded outputs in order, each in the richest form the page can
// show, and never alters what was printed.
func (r *outputRenderer) render(outs []*notebook.Output) (string, error) {
	var b strings.Builder
	for i, o := range outs {
		switch o.Type {
		case "stream":
			class := "stdout"
			if o.Name == "stderr" {
				class = "stderr"
			}
			fmt.Fprintf(&b, "<pre class=\"output stream %s\">%s</pre>\n", class, html.EscapeString(stripANSI(o.Text)))
		case "error":
			t := strings.Join(o.Traceback, "\n")
			if len(o.Traceback) == 0 {
				t = o.EName + ": " + o.EValue
			}
			fmt.Fprintf(&b, "<pre class=\"output error\">%s</pre>\n", html.EscapeString(stripANSI(t)))
		case "display_data", "execute_result":
			s, err := r.data(o)
			if err != nil {
				return "", fmt.Errorf("output %d: %w", i+1, err)
			}
			b.WriteString(s)
		default:
			return "", fmt.Errorf("output %d: unknown output_type %q", i+1, o.Type)
		}
	}
	return b.String(), nil
}

// data picks the richest MIME type of a display or result output, as Jupyter does.
func (r *outputRenderer) data(o *notebook.Output) (string, error) {
	has := func(mime string) bool { _, ok := o.Data[mime]; return ok }
	switch {
	case has("text/html"):
		return "<div class=\"output html\">" + r.shareLibrary(o.DataText("text/html")) + "</div>\n", nil
	case has("image/svg+xml"):
		return "<div class=\"output image\">" + o.DataText("image/svg+xml") + "</div>\n", nil
	}
	for _, typ := range []string{"image/png", "image/jpeg", "image/gif"} {
		if !has(typ) {
			continue
		}
		img, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(o.DataText(typ)), ""))
		if err != nil {
			return "", fmt.Errorf("%s output: %w", typ, err)
		}
		sum := sha256.Sum256(img)
		path := "assets/img/" + hex.EncodeToString(sum[:8]) + "." + strings.TrimPrefix(typ, "image/")
		r.assets[path] = img
		return fmt.Sprintf("<div class=\"output image\"><img src=\"%s\" alt=\"output image\"></div>\n", path), nil
	}
	if has("text/markdown") {
		h, _, _, err := r.md.render(o.DataText("text/markdown"), &section{})
		if err != nil {
			return "", fmt.Errorf("markdown output: %w", err)
		}
		return "<div class=\"output markdown\">" + h + "</div>\n", nil
	}
	if has("text/plain") {
		return "<pre class=\"output result\">" + html.EscapeString(stripANSI(o.DataText("text/plain"))) + "</pre>\n", nil
	}
	return "", fmt.Errorf("no MIME type the site can show among %v", mimeTypes(o.Data))
}

func stripANSI(s string) string { return ansiEscape.ReplaceAllString(s, "") }

func mimeTypes[V any](m map[string]V) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
