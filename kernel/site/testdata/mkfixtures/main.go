// Command mkfixtures writes the fixture notebooks the site tests export. Their code cells are
// real Go: each is run with `go run` and its printed output recorded, as the kernel would. The
// chart cells' outputs are what the course's charts record (package chart) for go-echarts charts
// of the same data: the element with its static picture, the script, the SVG and a title.
//
// Run from kernel/site: go run ./testdata/mkfixtures
package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/agenticrl/course/kernel/chart"
	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

type cell map[string]any

func markdown(src string) cell {
	return cell{"cell_type": "markdown", "metadata": map[string]any{}, "source": lines(src)}
}

// code runs src (a GoNB cell holding a whole program) and records what it printed.
func code(src string) cell {
	dir, err := os.MkdirTemp("", "fixture")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "main.go")
	if err := os.WriteFile(file, []byte("package main\n\n"+src), 0o644); err != nil {
		log.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command("go", "run", file)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		log.Fatalf("running cell:\n%s\n%v\n%s", src, err, stderr.String())
	}
	outs := []any{}
	if stdout.Len() > 0 {
		outs = append(outs, map[string]any{"output_type": "stream", "name": "stdout", "text": lines(stdout.String())})
	}
	if stderr.Len() > 0 {
		outs = append(outs, map[string]any{"output_type": "stream", "name": "stderr", "text": lines(stderr.String())})
	}
	return cell{"cell_type": "code", "metadata": map[string]any{}, "execution_count": nil, "source": lines(src), "outputs": outs}
}

func withOutputs(src string, outs ...any) cell {
	return cell{"cell_type": "code", "metadata": map[string]any{}, "execution_count": nil, "source": lines(src), "outputs": outs}
}

// lines splits text the way Jupyter stores it: a list of lines that keep their newlines.
func lines(s string) []string {
	out := []string{}
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

func write(name string, cells ...cell) {
	nb := map[string]any{
		"nbformat": 4, "nbformat_minor": 5,
		"metadata": map[string]any{
			"kernelspec":    map[string]any{"display_name": "Go (gonb)", "language": "go", "name": "gonb"},
			"language_info": map[string]any{"name": "go"},
		},
		"cells": cells,
	}
	b, err := json.MarshalIndent(nb, "", " ")
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("testdata", "notebooks", name), append(b, '\n'), 0o644); err != nil {
		log.Fatal(err)
	}
}

// returnsChart is the line chart of the discounted returns printed by the cell before it.
func returnsChart() *charts.Line {
	line := charts.NewLine()
	line.SetGlobalOptions(
		charts.WithInitializationOpts(opts.Initialization{Width: "640px", Height: "360px"}),
		charts.WithTitleOpts(opts.Title{Title: "Discounted return G_t", Subtitle: "rewards 1, 1, 1, 1; gamma = 0.9"}),
		charts.WithXAxisOpts(opts.XAxis{Name: "time step t"}),
		charts.WithYAxisOpts(opts.YAxis{Name: "return"}),
	)
	var data []opts.LineData
	for _, g := range []float64{3.439, 2.71, 1.9, 1} {
		data = append(data, opts.LineData{Value: g})
	}
	line.SetXAxis([]string{"0", "1", "2", "3"}).AddSeries("G_t", data)
	return line
}

// rewardsChart is a bar chart of the episode's rewards.
func rewardsChart() *charts.Bar {
	bar := charts.NewBar()
	bar.SetGlobalOptions(
		charts.WithInitializationOpts(opts.Initialization{Width: "640px", Height: "320px"}),
		charts.WithTitleOpts(opts.Title{Title: "Reward per step"}),
		charts.WithXAxisOpts(opts.XAxis{Name: "time step t"}),
		charts.WithYAxisOpts(opts.YAxis{Name: "reward"}),
	)
	var data []opts.BarData
	for _, r := range []float64{1, 1, 1, 1} {
		data = append(data, opts.BarData{Value: r})
	}
	bar.SetXAxis([]string{"1", "2", "3", "4"}).AddSeries("r_t", data)
	return bar
}

// chartOutput is the display output the course's ShowChart records for c.
func chartOutput(c chart.Chart) map[string]any {
	out, err := chart.Render(c)
	if err != nil {
		log.Fatal(err)
	}
	data := map[string]any{}
	for mime, content := range out.MIME() {
		data[mime] = lines(content)
	}
	return map[string]any{"output_type": "display_data", "metadata": map[string]any{}, "data": data}
}

func tinyPNG() string {
	img := image.NewRGBA(image.Rect(0, 0, 24, 8))
	for x := 0; x < 24; x++ {
		for y := 0; y < 8; y++ {
			img.Set(x, y, color.RGBA{uint8(10 * x), 80, 200, 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		log.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(b.Bytes())
}

func main() {
	os.Setenv("AGENTRL_ECHARTS_JS", "../js/node_modules/echarts/dist/echarts.min.js")
	if err := os.MkdirAll("testdata/notebooks", 0o755); err != nil {
		log.Fatal(err)
	}

	write("ch00_start.ipynb",
		markdown("# Reading these notes\n\nEach chapter is a notebook: prose, then *code*, then the output the code printed.\n\n## Cells and outputs\n\nA cell that prints shows its output under it.\n\n| Kind | Shown as |\n|---|---|\n| printed text | a block under the cell |\n| chart | a canvas |\n"),
		code("import \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hello from a code cell\")\n\tfmt.Printf(\"%d + %d = %d\\n\", 2, 3, 2+3)\n}\n"),
		markdown("## Pictures\n\nA cell may show an image."),
		withOutputs("%%\ngonbui.DisplayPNG(picture)\n",
			map[string]any{"output_type": "display_data", "metadata": map[string]any{}, "data": map[string]any{"image/png": tinyPNG(), "text/plain": "<image>"}}),
	)

	write("ch01_returns.ipynb",
		markdown("# Returns and discounting\n\nAn agent collects rewards $r_1, r_2, \\dots$ and we score a whole episode by its *return*.\n\n## The discounted return\n\nThe return from step $t$ discounts later rewards by $\\gamma \\in [0, 1)$:\n\n$$\nG_t = \\sum_{k=0}^{T-t-1} \\gamma^k \\, r_{t+k+1}\n$$\n\nso that $G_t = r_{t+1} + \\gamma G_{t+1}$ and $G_T = 0$ when $a < b$ holds for no reason at all."),
		code("//@save\nimport \"fmt\"\n\n// DiscountedReturns returns G_t for every step of one episode's rewards.\nfunc DiscountedReturns(rewards []float64, gamma float64) []float64 {\n\tg := make([]float64, len(rewards))\n\tnext := 0.0\n\tfor t := len(rewards) - 1; t >= 0; t-- {\n\t\tnext = rewards[t] + gamma*next\n\t\tg[t] = next\n\t}\n\treturn g\n}\n\nfunc main() {\n\tfor t, g := range DiscountedReturns([]float64{1, 1, 1, 1}, 0.9) {\n\t\tfmt.Printf(\"G_%d = %.3f\\n\", t, g)\n\t}\n}\n"),
		markdown("### Plotting the returns\n\nThe return shrinks toward the end of the episode: fewer rewards are left to collect."),
		withOutputs("%%\nplots.Line(\"Discounted return G_t\", \"time step t\", \"return\", DiscountedReturns([]float64{1, 1, 1, 1}, 0.9))\n",
			chartOutput(returnsChart())),
		markdown("Every reward in this episode is 1:"),
		withOutputs("%%\nplots.Bar(\"Reward per step\", \"time step t\", \"reward\", []float64{1, 1, 1, 1})\n",
			chartOutput(rewardsChart())),
		markdown("## Summary\n\n- The return weighs a reward $k$ steps ahead by $\\gamma^k$.\n- Computing it backwards takes one pass:\n\n```go\nnext = rewards[t] + gamma*next\n```\n"),
	)

	write("appA_tools.ipynb",
		markdown("# Mathematical tools\n\nThe identities the chapters rely on.\n\n## The log-derivative trick\n\n$$\\nabla_\\theta \\log p_\\theta(x) = \\frac{\\nabla_\\theta p_\\theta(x)}{p_\\theta(x)}$$\n\nA failing cell keeps its error:"),
		withOutputs("%%\nvar x []int\nfmt.Println(x[3])\n",
			map[string]any{"output_type": "error", "ename": "panic", "evalue": "runtime error: index out of range [3] with length 0",
				"traceback": []string{"\x1b[31mpanic: runtime error: index out of range [3] with length 0\x1b[0m", "", "goroutine 1 [running]:"}}),
	)
	fmt.Println("wrote testdata/notebooks/{ch00_start,ch01_returns,appA_tools}.ipynb")
}
