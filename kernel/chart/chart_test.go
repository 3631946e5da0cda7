package chart

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// The checkout's echarts, which set-up installs from npm.
const echartsFile = "../js/node_modules/echarts/dist/echarts.min.js"

func useCheckoutECharts(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(echartsFile); err != nil {
		t.Fatalf("%s missing: run `make setup`", echartsFile)
	}
	t.Setenv("AGENTRL_ECHARTS_JS", echartsFile)
}

func lineChart(title string, width string) *charts.Line {
	line := charts.NewLine()
	line.SetGlobalOptions(
		charts.WithInitializationOpts(opts.Initialization{Width: width, Height: "300px"}),
		charts.WithTitleOpts(opts.Title{Title: title}),
		charts.WithXAxisOpts(opts.XAxis{Name: "step"}),
		charts.WithYAxisOpts(opts.YAxis{Name: "return"}),
		charts.WithAnimation(false),
	)
	line.SetXAxis([]int{1, 2, 3, 4})
	line.AddSeries("a", []opts.LineData{{Value: 1}, {Value: 3}, {Value: 2}, {Value: 4}})
	line.AddSeries("b", []opts.LineData{{Value: 2}, {Value: 2}, {Value: 1}, {Value: 0}})
	return line
}

func TestRender(t *testing.T) {
	useCheckoutECharts(t)
	out, err := Render(lineChart("Returns </script> per step", "500px"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.SVG, `<svg width="500" height="300"`) || !strings.Contains(out.SVG, ">Returns &lt;/script&gt; per step<") {
		t.Errorf("picture does not start as a 500×300 SVG with the title:\n%s", truncate(out.SVG, 400))
	}
	if out.Title != "Returns </script> per step" {
		t.Errorf("title %q", out.Title)
	}
	// The HTML: the element with the picture inside, named apart from other pictures on the page.
	if !strings.HasPrefix(out.HTML, `<div class="agentrl-chart" id="`+out.ID+`" style="width:500px;height:300px;"><svg`) {
		t.Errorf("HTML starts %q", truncate(out.HTML, 200))
	}
	if strings.Contains(out.HTML, "zr0-") || !strings.Contains(out.HTML, `url(#`+out.ID+`-c0)`) {
		t.Error("the inlined picture keeps zrender's page-wide names")
	}
	// One script, which the title cannot end early, loading the library from LibraryPath.
	if n := strings.Count(out.HTML, "</script"); n != 1 {
		t.Errorf("%d </script in the HTML, want 1 (the title must be escaped)", n)
	}
	if !strings.Contains(out.HTML, `s.src = "lib/echarts.js"`) || strings.Contains(out.HTML, "Apache Software Foundation") {
		t.Error("the script does not load the library from lib/echarts.js, or inlines it")
	}
	if len(out.HTML) > 3*len(out.SVG) {
		t.Errorf("HTML %d bytes for a %d-byte picture", len(out.HTML), len(out.SVG))
	}
	mime := out.MIME()
	if mime["image/svg+xml"] != out.SVG || mime["text/html"] != out.HTML || mime["text/plain"] != "[chart: Returns </script> per step]" {
		t.Errorf("bundle %v", mime)
	}

	// The same chart again: the same picture, an ID of the same content but a new number.
	again, err := Render(lineChart("Returns </script> per step", "500px"))
	if err != nil {
		t.Fatal(err)
	}
	if again.SVG != out.SVG {
		t.Error("the same chart drew two different pictures")
	}
	if again.ID == out.ID || again.ID[:len("chart_")+12] != out.ID[:len("chart_")+12] {
		t.Errorf("IDs %s and %s", out.ID, again.ID)
	}
	other, err := Render(lineChart("Other", "500px"))
	if err != nil {
		t.Fatal(err)
	}
	if other.SVG == out.SVG || other.ID[:18] == out.ID[:18] {
		t.Error("two different charts share a picture or an ID")
	}
}

func TestRenderErrors(t *testing.T) {
	useCheckoutECharts(t)
	if _, err := Render(lineChart("x", "80%")); err == nil || !strings.Contains(err.Error(), "pixels") {
		t.Errorf("a width in percent: %v", err)
	}
	t.Setenv("AGENTRL_ECHARTS_JS", filepath.Join(t.TempDir(), "missing.js"))
	if _, err := Render(lineChart("x", "500px")); err == nil || !strings.Contains(err.Error(), "make setup") {
		t.Errorf("no echarts: %v", err)
	}
	t.Setenv("AGENTRL_ECHARTS_JS", "")
	t.Setenv("AGENTRL_ROOT", "")
	if _, err := Render(lineChart("x", "500px")); err == nil || !strings.Contains(err.Error(), "AGENTRL_ROOT") {
		t.Errorf("nothing set: %v", err)
	}
	useCheckoutECharts(t)
	if _, err := SVG("{series: [{type: 'nosuchtype'}]", 100, 100); err == nil {
		t.Error("an option that is not JavaScript drew a picture")
	}
}

func TestWriteLibrary(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "echarts.min.js")
	if err := os.WriteFile(src, []byte(`!function(t,e){"object"==typeof exports&&"undefined"!=typeof module?e(exports):"function"==typeof define&&define.amd?define(["exports"],e):e((t=t||self).echarts={})}(this,function(t){t.version="5.6.0"});`), 0o644); err != nil {
		t.Fatal(err)
	}
	path, err := WriteLibrary(filepath.Join(dir, "notebooks"), src)
	if err != nil {
		t.Fatal(err)
	}
	if path != filepath.Join(dir, "notebooks", "lib", "echarts.js") {
		t.Errorf("written to %s", path)
	}
	got, _ := os.ReadFile(path)
	if !strings.Contains(string(got), "(function (define, exports, module) {\n!function(t,e)") || !strings.HasSuffix(string(got), "\n}).call(window);\n") {
		t.Errorf("library file:\n%s", got)
	}
	st, _ := os.Stat(path)
	if _, err := WriteLibrary(filepath.Join(dir, "notebooks"), src); err != nil {
		t.Fatal(err)
	}
	if st2, _ := os.Stat(path); !st2.ModTime().Equal(st.ModTime()) {
		t.Error("an up-to-date library was written again")
	}
	if _, err := WriteLibrary(dir, filepath.Join(dir, "none.js")); err == nil {
		t.Error("no error for a missing echarts file")
	}
}
