package agentrl

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"
	"time"
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

// option decodes a plot's echarts option.
func option(t *testing.T, p *Plot) map[string]any {
	t.Helper()
	var o map[string]any
	if err := json.Unmarshal([]byte(p.Option()), &o); err != nil {
		t.Fatalf("option is not JSON: %v\n%s", err, p.Option())
	}
	return o
}

func TestPlotOption(t *testing.T) {
	p := NewPlot("Solve rate", "3 seeds", Axis{Name: "update"}, Axis{Name: "entropy", Unit: "nats", Range: []float64{0}})
	p.Line("plain", []float64{1, 2, 3}, []float64{0.5, math.NaN(), 1.0 / 3})
	p.Band("over seeds", []float64{1, 2, 3}, []float64{1, 2, 3}, []float64{0.5, 0, 1})
	p.Points("sampled", []float64{1.5}, []float64{2})
	p.Region(1, 2, "clipped")
	o := option(t, p)

	x, y := o["xAxis"].(map[string]any), o["yAxis"].(map[string]any)
	if x["type"] != "value" || x["name"] != "update" || x["min"] != "dataMin" || x["max"] != "dataMax" {
		t.Errorf("x axis %v", x)
	}
	if y["name"] != "entropy (nats)" || y["min"] != 0.0 || y["max"] != nil {
		t.Errorf("y axis %v: want the unit in the name and only a lower bound", y)
	}
	series := o["series"].([]any)
	// plain line, band's line, its lower edge, its spread, points, the regions' carrier.
	if len(series) != 6 {
		t.Fatalf("%d series, want 6", len(series))
	}
	data := func(i int) []any { return series[i].(map[string]any)["data"].([]any) }
	if got := data(0); got[1].([]any)[1] != nil || got[2].([]any)[1] != 0.333333 {
		t.Errorf("line data %v: want a gap for NaN and six significant digits", got)
	}
	// The band: lower edge at mean − spread, then a shaded width of 2·spread stacked on it, both
	// written [y, x] so that stacking adds the y values.
	lo, width := series[2].(map[string]any), series[3].(map[string]any)
	if lo["stack"] != "over seeds" || width["stack"] != "over seeds" || width["areaStyle"] == nil || lo["areaStyle"] != nil {
		t.Errorf("band edges %v / %v", lo, width)
	}
	if got := data(2)[2].([]any); got[0] != 2.0 || got[1] != 3.0 {
		t.Errorf("lower edge at x = 3: %v, want [2, 3]", got)
	}
	if got := data(3)[0].([]any); got[0] != 1.0 || got[1] != 1.0 {
		t.Errorf("band width at x = 1: %v, want [1, 1]", got)
	}
	if series[4].(map[string]any)["type"] != "scatter" {
		t.Errorf("points drawn as %v", series[4])
	}
	if ma := series[5].(map[string]any)["markArea"]; !strings.Contains(jsonOf(ma), `"name":"clipped","xAxis":1`) {
		t.Errorf("region %s", jsonOf(ma))
	}
	// The legend lists what a reader can tell apart: not the band's edges.
	if got := jsonOf(o["legend"].(map[string]any)["data"]); got != `["plain","over seeds","sampled"]` {
		t.Errorf("legend %s", got)
	}
	if p.Option() != p.Option() {
		t.Error("the same plot gives two options")
	}
	if s := p.RenderSnippet(); !strings.Contains(s.Element, "width:760px;height:380px;") || s.Option != p.Option() {
		t.Errorf("snippet %v", s)
	}
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestPlotBarsAndLog(t *testing.T) {
	p := NewPlot("Modes", "", Axis{Name: "mode", Categories: []string{"a", "b"}}, Axis{Name: "error", Log: true})
	p.Bars("runs", []float64{3, 4})
	o := option(t, p)
	if x := o["xAxis"].(map[string]any); x["type"] != "category" || x["min"] != nil || jsonOf(x["data"]) != `["a","b"]` {
		t.Errorf("category axis %v", x)
	}
	if y := o["yAxis"].(map[string]any); y["type"] != "log" {
		t.Errorf("log axis %v", y)
	}
	if got := jsonOf(o["series"].([]any)[0].(map[string]any)["data"]); got != `[[0,3],[1,4]]` {
		t.Errorf("bars %s", got)
	}
	// Categories too long to sit side by side are slanted, with room made for them.
	long := NewPlot("Kinds", "", Axis{Name: "kind", Categories: []string{"off_by_one", "wrong_operator", "swapped_arguments", "wrong_return", "missing_case"}}, Axis{Name: "n"})
	o = option(t, long.Bars("n", []float64{1, 2, 3, 4, 5}))
	if x := o["xAxis"].(map[string]any); jsonOf(x["axisLabel"]) != `{"interval":0,"rotate":30}` || x["nameGap"] != 28.0+3*17 {
		t.Errorf("long categories: %v", x)
	}
	if g := o["grid"].(map[string]any); g["bottom"] != 75.0+3*17 {
		t.Errorf("grid %v: no room for slanted labels", g)
	}
	if x := option(t, p)["xAxis"].(map[string]any); jsonOf(x["axisLabel"]) != `{"interval":0}` {
		t.Errorf("short categories: %v", x)
	}
	for name, f := range map[string]func(){
		"bars":   func() { p.Bars("three", []float64{1, 2, 3}) },
		"line":   func() { p.Line("short", []float64{1, 2}, []float64{1}) },
		"spread": func() { p.Band("band", []float64{1, 2}, []float64{1, 2}, []float64{1}) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: mismatched lengths did not panic", name)
				}
			}()
			f()
		}()
	}
}

func TestMeanStd(t *testing.T) {
	mean, std := MeanStd([][]float64{{1, 10}, {3, 10}, {5, 10}})
	if jsonOf(mean) != "[3,10]" || jsonOf(std) != "[2,0]" {
		t.Errorf("mean %v std %v, want [3 10] [2 0]", mean, std)
	}
	if m, s := MeanStd([][]float64{{4}}); m[0] != 4 || s[0] != 0 {
		t.Errorf("one run: %v %v", m, s)
	}
	if m, s := MeanStd(nil); m != nil || s != nil {
		t.Error("no runs")
	}
}

// TestSeries checks Series against hand-picked records: two seeds of three points each.
func TestSeries(t *testing.T) {
	type rec struct{ a, b float64 }
	runs := [][]rec{{{1, 2}, {3, 4}, {5, 6}}, {{7, 8}, {9, 10}, {11, 12}}}
	got := Series(runs, func(r rec) float64 { return r.b })
	want := [][]float64{{2, 4, 6}, {8, 10, 12}}
	if len(got) != 2 || !slices.Equal(got[0], want[0]) || !slices.Equal(got[1], want[1]) {
		t.Fatalf("Series = %v, want %v", got, want)
	}
	if got := Series([][]rec{{}, nil}, func(r rec) float64 { return r.a }); len(got) != 2 || len(got[0]) != 0 || len(got[1]) != 0 {
		t.Fatalf("Series of two empty runs = %v, want two empty rows", got)
	}
}
