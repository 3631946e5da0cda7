package site

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"html"
	"regexp"
	"sort"
	"strings"

	"github.com/agenticrl/course/kernel/notebook"
)

// assetFiles collects files that outputs move out of the pages, keyed by their path under the
// site root, so that identical content is written once.
type assetFiles map[string][]byte

var (
	// HTML ends a script's text at the first "</script", whatever the script says; matching
	// lazily to it is how a browser splits it too.
	scriptElement = regexp.MustCompile(`(?is)<script\b([^>]*)>(.*?)</script\s*>`)
	ansiEscape    = regexp.MustCompile("\x1b\\[[0-9;?]*[A-Za-z]")
)

// largeScript is the size above which an inline script in an output is reported: most likely a
// chart recorded with the whole charting library inlined, before charts loaded it from a file.
const largeScript = 100_000

// outputRenderer renders the outputs of one page.
type outputRenderer struct {
	assets assetFiles
	md     *markdownRenderer
	charts int // chart outputs (they load the site's one copy of echarts, chart.LibraryPath)
	large  int // large inline scripts
}

// html renders an HTML output as recorded, counting its charts and its large inline scripts.
func (r *outputRenderer) html(h string) string {
	r.charts += strings.Count(h, `class="agentrl-chart"`)
	for _, m := range scriptElement.FindAllStringSubmatch(h, -1) {
		if len(m[2]) > largeScript {
			r.large++
		}
	}
	return "<div class=\"output html\">" + h + "</div>\n"
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
		return r.html(o.DataText("text/html")), nil
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
