package agentrl

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

func TestWall(t *testing.T) {
	cases := map[time.Duration]string{
		1234567 * time.Microsecond: "[wall: 1.23s]",
		5 * time.Millisecond:       "[wall: 10ms]",
		90 * time.Second:           "[wall: 1m30s]",
	}
	for d, want := range cases {
		if got := Wall(d); got != want {
			t.Errorf("Wall(%v) = %q, want %q", d, got, want)
		}
	}
}

func lineChart(title string) *charts.Line {
	l := charts.NewLine()
	l.SetGlobalOptions(charts.WithTitleOpts(opts.Title{Title: title}))
	l.SetXAxis([]int{1, 2, 3})
	l.AddSeries("y", []opts.LineData{{Value: 1}, {Value: 4}, {Value: 9}})
	return l
}

var chartID = regexp.MustCompile(`id="(chart_[0-9a-f]{12}_\d+)"`)

func TestChartHTML(t *testing.T) {
	js := filepath.Join(t.TempDir(), "echarts.min.js")
	os.WriteFile(js, []byte("window.fakeEcharts = 1; // </script> inside the library"), 0o644)
	t.Setenv("AGENTRL_ECHARTS_JS", js)

	chartsShown = 0
	a, err := ChartHTML(lineChart("squares"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := ChartHTML(lineChart("squares"))
	c, _ := ChartHTML(lineChart("other"))
	idA, idB, idC := chartID.FindStringSubmatch(a), chartID.FindStringSubmatch(b), chartID.FindStringSubmatch(c)
	if idA == nil || idB == nil || idC == nil {
		t.Fatalf("no content-derived chart ID in:\n%s", a)
	}
	// Same content: same hash, numbered apart; other content: another hash.
	if idA[1][:18] != idB[1][:18] || idA[1] == idB[1] || idA[1][:18] == idC[1][:18] {
		t.Errorf("IDs %s, %s, %s", idA[1], idB[1], idC[1])
	}
	// Rendering again in a fresh program gives the same HTML: this is what the checker compares.
	chartsShown = 0
	again, _ := ChartHTML(lineChart("squares"))
	if again != a {
		t.Error("the same chart rendered twice in fresh programs differs")
	}
	if n := strings.Count(a, idA[1]); n < 2 {
		t.Errorf("the element ID appears %d times; the script must refer to it", n)
	}
	for _, want := range []string{
		`if (typeof window.echarts === "undefined")`,
		"(function(define, exports, module) {\nwindow.fakeEcharts = 1; // <\\/script> inside the library\n}).call(window);",
		"echarts.init(document.getElementById('" + idA[1] + "')",
	} {
		if !strings.Contains(a, want) {
			t.Errorf("chart HTML lacks %q:\n%s", want, a)
		}
	}
	if strings.Count(a, "</script>") != 1 {
		t.Error("the inlined library could close the script element early")
	}
}

func TestChartHTMLWithoutLibrary(t *testing.T) {
	t.Setenv("AGENTRL_ECHARTS_JS", filepath.Join(t.TempDir(), "missing.js"))
	if _, err := ChartHTML(lineChart("x")); err == nil || !strings.Contains(err.Error(), "make setup") {
		t.Errorf("err = %v, want one that says to run make setup", err)
	}
}

// Chapter 0's recorded chart, exported to HTML by Jupyter's nbconvert with the classic template
// (which loads require.js, the trap ShowChart avoids), must draw in a browser with the network
// off, and the page must load nothing from the network.
func TestChapter0ExportDrawsChartOffline(t *testing.T) {
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatal("chromium is missing: run `make test` (its set-up installs it) or `AGENTRL_TEST_DEPS=1 make setup`")
	}
	dir := t.TempDir()
	out, err := exec.Command("/usr/bin/jupyter", "nbconvert", "--to", "html", "--template", "classic",
		"--output-dir", dir, "--output", "ch00", "../notebooks/ch00_notation.ipynb").CombinedOutput()
	if err != nil {
		t.Fatalf("nbconvert (run `make setup`): %v\n%s", err, out)
	}
	page, err := os.ReadFile(filepath.Join(dir, "ch00.html"))
	if err != nil {
		t.Fatal(err)
	}
	external := regexp.MustCompile(`<(script|link|img|iframe)\b[^>]*\b(src|href)\s*=\s*["']?(https?:)?//`)
	if m := external.Find(page); m != nil {
		t.Errorf("the page loads from the network: %s", m)
	}
	id := chartID.FindSubmatch(page)
	if id == nil {
		t.Fatal("no chart in the exported page")
	}
	profile := t.TempDir()
	dom, err := exec.Command(chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--user-data-dir="+profile,
		"--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=127.0.0.1:9", "--virtual-time-budget=10000",
		"--dump-dom", "file://"+filepath.Join(dir, "ch00.html")).Output()
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	_, after, ok := strings.Cut(string(dom), `id="`+string(id[1])+`"`)
	if !ok {
		t.Fatal("the chart's element is not in the rendered page")
	}
	inside, _, _ := strings.Cut(after, "</div></div>")
	if !strings.Contains(inside, "<canvas") {
		t.Errorf("echarts drew no canvas in the chart's element: %.300s", inside)
	}
}
