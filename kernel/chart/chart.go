package chart

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/go-echarts/go-echarts/v2/render"
)

// Chart is any go-echarts chart (charts.Line, charts.Bar, charts.Scatter, ...).
type Chart interface {
	RenderSnippet() render.ChartSnippet
}

// Output is one chart rendered for a notebook: the three forms of its display bundle.
type Output struct {
	ID    string // the HTML element's ID, derived from the chart's content
	Title string // the chart's title ("chart" if it has none)
	HTML  string // the element with the static picture inside, and the script that draws the chart
	SVG   string // the static picture
}

// MIME returns the output as a display bundle: MIME type to content.
func (o Output) MIME() map[string]string {
	return map[string]string{"text/html": o.HTML, "image/svg+xml": o.SVG, "text/plain": "[chart: " + o.Title + "]"}
}

//go:embed ssr.js
var ssrScript string

// shown numbers the charts of one program (one notebook cell), so that two equal charts in a
// cell get different IDs.
var shown int

var (
	elementSize = regexp.MustCompile(`width:\s*(\d+)px;\s*height:\s*(\d+)px`)
	// zrender names the SVG's clip paths and style classes "zr0-...": unique in a file of their
	// own, but not among several pictures inlined in one page.
	svgNames = regexp.MustCompile(`([#".])zr\d+-`)
)

// Render renders c: its option, the static picture drawn from that option, and the HTML that
// shows the picture until the interactive chart replaces it. The chart's size must be given in
// pixels (go-echarts' Initialization Width and Height, "900px" and "500px" by default).
func Render(c Chart) (Output, error) {
	s := c.RenderSnippet()
	m := elementSize.FindStringSubmatch(s.Element)
	if m == nil {
		return Output{}, fmt.Errorf("chart size must be in pixels, as in Width: \"760px\"; the element is %q", strings.TrimSpace(s.Element))
	}
	width, _ := strconv.Atoi(m[1])
	height, _ := strconv.Atoi(m[2])
	svg, err := SVG(s.Option, width, height)
	if err != nil {
		return Output{}, err
	}
	// go-echarts names the element with a random ID; name it after the content instead, so the
	// same chart renders to the same bytes on every run.
	sum := sha256.Sum256([]byte(s.Option))
	shown++
	id := fmt.Sprintf("chart_%s_%d", hex.EncodeToString(sum[:6]), shown)
	title := "chart"
	var head struct {
		Title struct {
			Text string `json:"text"`
		} `json:"title"`
	}
	if json.Unmarshal([]byte(s.Option), &head) == nil && head.Title.Text != "" {
		title = head.Title.Text
	}
	inline := svgNames.ReplaceAllString(svg, "${1}"+id+"-")
	var b strings.Builder
	fmt.Fprintf(&b, "<div class=\"agentrl-chart\" id=\"%s\" style=\"width:%dpx;height:%dpx;\">%s</div>\n", id, width, height, inline)
	b.WriteString("<script type=\"text/javascript\">\n")
	b.WriteString(strings.NewReplacer("ID", id, "OPTION", strings.ReplaceAll(s.Option, "</", `<\/`), "LIBRARY", LibraryPath).Replace(loader))
	b.WriteString("</script>\n")
	return Output{ID: id, Title: title, HTML: b.String(), SVG: svg}, nil
}

// loader draws one chart. The first chart of a page that has no echarts yet loads it; the
// others queue behind that load. If the library cannot be loaded, every chart keeps its picture,
// and the next chart that runs tries again.
const loader = `(function () {
  var option = OPTION;
  function draw() {
    var el = document.getElementById("ID");
    if (!el) return;
    el.innerHTML = "";
    window.echarts.init(el, null, { renderer: "canvas" }).setOption(option);
  }
  if (window.echarts) { draw(); return; }
  var queue = window.agentrlChartQueue;
  if (!queue) {
    queue = window.agentrlChartQueue = [];
    var s = document.createElement("script");
    s.src = "LIBRARY";
    s.onload = function () { window.agentrlChartQueue = null; queue.forEach(function (f) { f(); }); };
    s.onerror = function () { window.agentrlChartQueue = null; };
    document.head.appendChild(s);
  }
  queue.push(draw);
})();
`

// SVG draws an echarts option (JavaScript object text, as go-echarts renders it) as an SVG
// picture of width × height pixels, with echarts' own server-side renderer under Node.js.
func SVG(option string, width, height int) (string, error) {
	lib, err := EChartsFile()
	if err != nil {
		return "", err
	}
	node, err := nodeCommand()
	if err != nil {
		return "", err
	}
	cmd := exec.Command(node, "-e", ssrScript, "--", lib, strconv.Itoa(width), strconv.Itoa(height))
	cmd.Stdin = strings.NewReader(option)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("drawing the chart's picture with %s: %v\n%s", node, err, stderr.String())
	}
	if !bytes.HasPrefix(out, []byte("<svg")) {
		return "", fmt.Errorf("drawing the chart's picture with %s: no SVG came back (%q)", node, truncate(string(out), 200))
	}
	return string(out), nil
}

func nodeCommand() (string, error) {
	for _, name := range []string{"node", "nodejs"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errors.New("Node.js not found, needed to draw charts' static pictures: run `make setup` (it installs npm and Node.js)")
}

// CheckoutECharts is where set-up installs echarts.min.js from npm in the checkout at root.
func CheckoutECharts(root string) string {
	return filepath.Join(root, "kernel", "js", "node_modules", "echarts", "dist", "echarts.min.js")
}

// EChartsFile returns the path of echarts.min.js: $AGENTRL_ECHARTS_JS if set, else the copy
// set-up installs in the checkout ($AGENTRL_ROOT, set by the course's kernel).
func EChartsFile() (string, error) {
	path := os.Getenv("AGENTRL_ECHARTS_JS")
	if path == "" {
		root := os.Getenv("AGENTRL_ROOT")
		if root == "" {
			return "", errors.New("echarts library not found: neither AGENTRL_ECHARTS_JS nor AGENTRL_ROOT is set (the course's kernel sets AGENTRL_ROOT)")
		}
		path = CheckoutECharts(root)
	}
	if _, err := os.Stat(path); err != nil {
		return "", fmt.Errorf("echarts library not found (%v): run `make setup`, or set AGENTRL_ECHARTS_JS", err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	return abs, nil
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
