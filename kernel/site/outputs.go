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
)

// assetFiles collects files that outputs move out of the pages, keyed by their path under the
// site root, so that identical content is written once.
type assetFiles map[string][]byte

var (
	// HTML ends a script's text at the first "</script", whatever the script says; matching
	// lazily to it is how a browser splits it too.
	scriptElement = regexp.MustCompile(`(?is)<script\b([^>]*)>(.*?)</script\s*>`)
	srcAttribute  = regexp.MustCompile(`(?i)\bsrc\s*=`)
	// An echarts UMD bundle, minified or not, ends its preamble by creating the global.
	echartsGlobal  = regexp.MustCompile(`\.echarts\s*=\s*\{\}`)
	echartsVersion = regexp.MustCompile(`\bversion\s*=\s*"(\d+\.\d+\.\d+)"`)
	ansiEscape     = regexp.MustCompile("\x1b\\[[0-9;?]*[A-Za-z]")
)

// isEchartsBundle says whether an inline script's text is the echarts library itself (rather
// than a chart that calls it). The library is large, carries the ASF licence header and
// defines the echarts global.
func isEchartsBundle(js string) bool {
	return len(js) > 100_000 &&
		strings.Contains(js, "Apache Software Foundation") &&
		echartsGlobal.MatchString(js)
}

// shareLibraries moves every inlined echarts bundle in an HTML output into its own asset file and
// loads it from there with a local <script src>. The file holds the script's text exactly as
// recorded (wrapper included), named by its hash, so every chart that inlined the same bundle
// shares one file and the chart's own scripts run unchanged after it. A script that is not
// recognised stays where it is.
func shareLibraries(h string, assets assetFiles) string {
	return scriptElement.ReplaceAllStringFunc(h, func(el string) string {
		m := scriptElement.FindStringSubmatch(el)
		attrs, js := m[1], m[2]
		if srcAttribute.MatchString(attrs) || !isEchartsBundle(js) {
			return el
		}
		sum := sha256.Sum256([]byte(js))
		name := "echarts-" + hex.EncodeToString(sum[:6]) + ".js"
		if v := echartsVersion.FindStringSubmatch(js); v != nil {
			name = "echarts-" + v[1] + "-" + hex.EncodeToString(sum[:6]) + ".js"
		}
		path := "assets/lib/" + name
		assets[path] = []byte(js)
		return `<script src="` + path + `"></script>`
	})
}

// renderOutputs renders a code cell's recorded outputs in order, each in the richest form the
// page can show, and never alters what was printed.
func renderOutputs(outs []output, assets assetFiles, md *markdownRenderer) (string, error) {
	var b strings.Builder
	for i, o := range outs {
		switch o.Type {
		case "stream":
			class := "stdout"
			if o.Name == "stderr" {
				class = "stderr"
			}
			fmt.Fprintf(&b, "<pre class=\"output stream %s\">%s</pre>\n", class, html.EscapeString(stripANSI(string(o.Text))))
		case "error":
			var t strings.Builder
			if len(o.Traceback) > 0 {
				t.WriteString(strings.Join(o.Traceback, "\n"))
			} else {
				fmt.Fprintf(&t, "%s: %s", o.Ename, o.Evalue)
			}
			fmt.Fprintf(&b, "<pre class=\"output error\">%s</pre>\n", html.EscapeString(stripANSI(t.String())))
		case "display_data", "execute_result":
			s, err := renderData(o, assets, md)
			if err != nil {
				return "", fmt.Errorf("output %d: %w", i, err)
			}
			b.WriteString(s)
		default:
			return "", fmt.Errorf("output %d: unknown output_type %q", i, o.Type)
		}
	}
	return b.String(), nil
}

// renderData picks the richest MIME type of a display or result output, as Jupyter does.
func renderData(o output, assets assetFiles, md *markdownRenderer) (string, error) {
	if s, ok := o.mime("text/html"); ok {
		return "<div class=\"output html\">" + shareLibraries(s, assets) + "</div>\n", nil
	}
	if s, ok := o.mime("image/svg+xml"); ok {
		return "<div class=\"output image\">" + s + "</div>\n", nil
	}
	for _, typ := range []string{"image/png", "image/jpeg", "image/gif"} {
		s, ok := o.mime(typ)
		if !ok {
			continue
		}
		img, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(s), ""))
		if err != nil {
			return "", fmt.Errorf("%s output: %w", typ, err)
		}
		sum := sha256.Sum256(img)
		path := "assets/img/" + hex.EncodeToString(sum[:8]) + "." + strings.TrimPrefix(typ, "image/")
		assets[path] = img
		return fmt.Sprintf("<div class=\"output image\"><img src=\"%s\" alt=\"output image\"></div>\n", path), nil
	}
	if s, ok := o.mime("text/markdown"); ok {
		h, _, _, err := md.render(s, &section{})
		if err != nil {
			return "", fmt.Errorf("markdown output: %w", err)
		}
		return "<div class=\"output markdown\">" + h + "</div>\n", nil
	}
	if s, ok := o.mime("text/plain"); ok {
		return "<pre class=\"output result\">" + html.EscapeString(stripANSI(s)) + "</pre>\n", nil
	}
	return "", fmt.Errorf("no MIME type the site can show among %v", keys(o.Data))
}

func stripANSI(s string) string { return ansiEscape.ReplaceAllString(s, "") }

func keys[V any](m map[string]V) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
