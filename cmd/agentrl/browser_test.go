package main

import (
	"bytes"
	"context"
	"image/png"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agenticrl/course/kernel/chart"
	"github.com/agenticrl/course/kernel/notebook"
	"github.com/agenticrl/course/kernel/spec"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// These tests open the book's charts where a reader meets them, in headless Chromium with the
// network cut off (host names do not resolve; anything but loopback goes to a closed proxy):
// Jupyter as `make course` serves it, a chapter exported by `jupyter nbconvert --to html`, and the
// static picture each chart output carries. Chapter 0 is the sample: one chart, a few seconds to
// run. $CHART_SCREENSHOTS, if set, is a folder where they leave what they saw.

const sampleChapter = "ch00_notation.ipynb"

// browser starts headless Chromium and returns a context for chromedp, and the list of every
// URL the pages requested.
func browser(t *testing.T) (context.Context, func() []string) {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatal("chromium is missing: run `make test` (its set-up installs it) or `AGENTRL_TEST_DEPS=1 make setup`")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.WindowSize(1280, 1000),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"),
		chromedp.ProxyServer("127.0.0.1:9"), // loopback bypasses the proxy; nothing else gets out
		chromedp.Flag("disable-quic", true),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	ctx, cancelTime := context.WithTimeout(ctx, 5*time.Minute)
	t.Cleanup(func() { cancelTime(); cancelCtx(); cancelAlloc() })
	if err := chromedp.Do(ctx); err != nil { // opens the tab, so that Listen misses nothing
		t.Fatalf("starting chromium: %v", err)
	}
	var mu sync.Mutex
	var urls []string
	if err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok {
			mu.Lock()
			urls = append(urls, e.Request.URL)
			mu.Unlock()
		}
	}); err != nil {
		t.Fatal(err)
	}
	return ctx, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), urls...)
	}
}

// checkLocal fails the test for every request that left the machine.
func checkLocal(t *testing.T, urls []string) {
	t.Helper()
	for _, u := range urls {
		p, err := url.Parse(u)
		if err != nil {
			t.Errorf("request to an unparsable URL %q", u)
			continue
		}
		switch {
		case p.Scheme == "file", p.Scheme == "data", p.Scheme == "blob", p.Scheme == "about":
		case (p.Scheme == "http" || p.Scheme == "https" || p.Scheme == "ws") && p.Hostname() == "127.0.0.1":
		default:
			t.Errorf("the page requested %s: it must load nothing from the network", u)
		}
	}
}

// chartState is what the page shows in each chart's element.
type chartState struct {
	Canvas  bool `json:"canvas"`  // echarts drew the interactive chart
	Ink     int  `json:"ink"`     // non-white pixels on its canvas
	Picture bool `json:"picture"` // the static SVG picture is (still) there
	Fresh   bool `json:"fresh"`   // the element was made after markOld
}

const chartsJS = `Array.from(document.querySelectorAll('.agentrl-chart')).map(function (el) {
  var c = el.querySelector('canvas'), ink = 0;
  if (c && c.width) {
    var d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    for (var i = 0; i < d.length; i += 4) if (d[i + 3] > 0 && (d[i] < 240 || d[i + 1] < 240 || d[i + 2] < 240)) ink++;
  }
  return { canvas: !!c, ink: ink, picture: !!el.querySelector('svg'), fresh: !el.dataset.old };
})`

// waitCharts polls the page until it shows want charts, each drawn on an inked canvas (and, with
// fresh, made after markOld), and returns them; or fails after the timeout.
func waitCharts(t *testing.T, ctx context.Context, want int, fresh bool, timeout time.Duration) []chartState {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[]chartState](chartsJS))
		if err != nil {
			t.Fatalf("reading the page: %v", err)
		}
		drawn := 0
		for _, c := range got {
			if c.Canvas && c.Ink > 2000 && (c.Fresh || !fresh) {
				drawn++
			}
		}
		if len(got) == want && drawn == want {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %v the page shows %d charts, %d of them drawn: %+v", timeout, len(got), drawn, got)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// screenshot saves the view of the page's first chart as name in $CHART_SCREENSHOTS, if set.
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("CHART_SCREENSHOTS")
	if dir == "" {
		return
	}
	// The page's own scrolling (classic Jupyter scrolls a panel, not the document) brings the chart
	// into view; then the screenshot is of the viewport.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector('.agentrl-chart').scrollIntoView({block: 'center'}); true`)); err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	b, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// chartCount is the number of chart outputs recorded in a notebook.
func chartCount(t *testing.T, path string) int {
	t.Helper()
	nb, err := notebook.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range nb.Cells {
		for _, o := range c.Outputs {
			if _, ok := o.Data["image/svg+xml"]; ok && strings.Contains(o.DataText("text/html"), `class="agentrl-chart"`) {
				n++
			}
		}
	}
	if n == 0 {
		t.Fatalf("%s has no chart output", path)
	}
	return n
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// serveJupyter serves the notebooks in dir as `make course` does, on a free port, with Jupyter's
// data folder of its own holding this checkout's kernel spec: the user's may belong to another
// checkout, and the notebook signatures stay out of the user's store.
func serveJupyter(t *testing.T, root, dir string) *jupyter {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	data := t.TempDir()
	if _, err := spec.Install(root, data); err != nil {
		t.Fatal(err)
	}
	j, err := startJupyter(root, dir, "127.0.0.1", port, filepath.Join(t.TempDir(), "jupyter.log"), "JUPYTER_DATA_DIR="+data)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// TestJupyterDrawsCharts serves a copy of Chapter 0 the way `make course` does and checks that its
// chart draws from the recorded output on opening, again after a reload, and again from new
// output after "Restart & Run All", which runs the chapter through the course's Go kernel.
func TestJupyterDrawsCharts(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	copyFile(t, filepath.Join(root, "notebooks", sampleChapter), filepath.Join(dir, sampleChapter))
	want := chartCount(t, filepath.Join(dir, sampleChapter))
	original, err := os.ReadFile(filepath.Join(dir, sampleChapter))
	if err != nil {
		t.Fatal(err)
	}
	j := serveJupyter(t, root, dir)
	defer j.Stop()
	ctx, requests := browser(t)
	page := j.URL("notebooks/" + sampleChapter)
	if err := chromedp.Do(ctx, chromedp.Navigate(page)); err != nil {
		t.Fatal(err)
	}
	waitCharts(t, ctx, want, false, time.Minute)
	screenshot(t, ctx, "jupyter.png")

	if err := chromedp.Do(ctx, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	waitCharts(t, ctx, want, false, time.Minute)
	// Opening a chapter must not change it: Jupyter saves what it shows, charts included.
	if got, _ := os.ReadFile(filepath.Join(dir, sampleChapter)); !bytes.Equal(got, original) {
		t.Errorf("opening %s in Jupyter changed the file", sampleChapter)
	}

	// Restart & Run All: mark the recorded charts, then wait for as many new ones.
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`!!(window.Jupyter && Jupyter.notebook && Jupyter.notebook.kernel && Jupyter.notebook.kernel.is_connected())`,
		chromedp.WithPollingTimeout(40*time.Second))); err != nil {
		state, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify({jupyter: !!window.Jupyter, kernel: !!(window.Jupyter && Jupyter.notebook && Jupyter.notebook.kernel), status: document.getElementById('kernel_indicator_icon') ? document.getElementById('kernel_indicator_icon').className : ''})`))
		t.Fatalf("the kernel never connected: %v; page: %s; Jupyter's log ends:\n%s", err, state, logTail(j.log))
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelectorAll('.agentrl-chart').forEach(function (el) { el.dataset.old = '1'; });
Jupyter.notebook.restart_run_all({confirm: false}); true`)); err != nil {
		t.Fatalf("restart and run all: %v; Jupyter's log ends:\n%s", err, logTail(j.log))
	}
	waitCharts(t, ctx, want, true, 4*time.Minute)
	errors, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('.output_error').length`))
	if err != nil {
		t.Fatal(err)
	}
	if errors != 0 {
		t.Errorf("%d cells failed under Restart & Run All; Jupyter's log ends:\n%s", errors, logTail(j.log))
	}
	checkLocal(t, requests())
}

// TestJupyterOpensChineseEdition serves the Chinese Chapter 0 the way `make course EDITION=zh`
// does (its own folder, the charts' library written beside it, the notebook trusted) and checks
// that it opens with its Chinese prose and its recorded chart drawn.
func TestJupyterOpensChineseEdition(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "zh")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	copyFile(t, filepath.Join(root, "notebooks", "zh", sampleChapter), filepath.Join(dir, sampleChapter))
	want := chartCount(t, filepath.Join(dir, sampleChapter))
	j := serveJupyter(t, root, dir)
	defer j.Stop()
	ctx, requests := browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(j.URL("notebooks/"+sampleChapter))); err != nil {
		t.Fatal(err)
	}
	waitCharts(t, ctx, want, false, time.Minute)
	title, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector('.rendered_html h1') || {}).textContent || ''`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(title, "第 0 章") {
		t.Errorf("the Chinese chapter's title renders as %q", title)
	}
	screenshot(t, ctx, "jupyter-zh.png")
	checkLocal(t, requests())
}

// logTail returns the end of a log file.
func logTail(path string) string {
	b, _ := os.ReadFile(path)
	if len(b) > 3000 {
		b = b[len(b)-3000:]
	}
	return string(b)
}

// nbconvert exports the sample chapter to HTML in dir with the given nbconvert arguments and
// returns the page's path.
func nbconvert(t *testing.T, dir string, args ...string) string {
	t.Helper()
	root, _ := filepath.Abs("../..")
	src := filepath.Join(dir, sampleChapter)
	copyFile(t, filepath.Join(root, "notebooks", sampleChapter), src)
	cmd := exec.Command("/usr/bin/jupyter", append(append([]string{"nbconvert", "--to", "html"}, args...), src)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("nbconvert (run `make setup`): %v\n%s", err, out)
	}
	return strings.TrimSuffix(src, ".ipynb") + ".html"
}

// TestNbconvertDrawsCharts exports Chapter 0 with nbconvert's default template and with the classic
// one (which loads require.js, the trap the charts' library file is wrapped against), beside the
// charts' library as set-up writes it beside the notebooks, and checks that the chart draws.
// Exported away from the library, the page shows the chart's static picture instead.
func TestNbconvertDrawsCharts(t *testing.T) {
	root, _ := filepath.Abs("../..")
	echarts := chart.CheckoutECharts(root)
	want := chartCount(t, filepath.Join(root, "notebooks", sampleChapter))
	for _, template := range []string{"lab", "classic"} {
		t.Run(template, func(t *testing.T) {
			dir := t.TempDir()
			if _, err := chart.WriteLibrary(dir, echarts); err != nil {
				t.Fatal(err)
			}
			page := nbconvert(t, dir, "--template", template)
			ctx, requests := browser(t)
			if err := chromedp.Do(ctx, chromedp.Navigate("file://"+page)); err != nil {
				t.Fatal(err)
			}
			waitCharts(t, ctx, want, false, time.Minute)
			screenshot(t, ctx, "nbconvert-"+template+".png")
			checkLocal(t, requests())
		})
	}
	t.Run("without the library", func(t *testing.T) {
		page := nbconvert(t, t.TempDir())
		ctx, _ := browser(t)
		if err := chromedp.Do(ctx, chromedp.Navigate("file://"+page), chromedp.Sleep(2*time.Second)); err != nil {
			t.Fatal(err)
		}
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[]chartState](chartsJS))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != want {
			t.Fatalf("%d charts on the page, want %d", len(got), want)
		}
		for i, c := range got {
			if c.Canvas || !c.Picture {
				t.Errorf("chart %d: %+v, want its static picture and no canvas", i+1, c)
			}
		}
		shot, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS(".agentrl-chart")))
		if err != nil {
			t.Fatal(err)
		}
		if n := inked(t, shot); n < 2000 {
			t.Errorf("the static picture inks %d pixels: not drawn", n)
		}
	})
}

// inked counts the non-white pixels of a PNG.
func inked(t *testing.T, b []byte) int {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	n := 0
	r := img.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			if cr < 0xf000 || cg < 0xf000 || cb < 0xf000 {
				n++
			}
		}
	}
	return n
}

// TestStaticPictures checks that every chart output of the book carries its static picture in the
// same display bundle, and shows Chapter 0's the way a notebook preview shows an image output: as
// an <img> of the SVG, with no script on the page.
func TestStaticPictures(t *testing.T) {
	paths, err := notebook.Find("../../notebooks")
	if err != nil {
		t.Fatal(err)
	}
	charts := 0
	for _, p := range paths {
		nb, err := notebook.Read(p)
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range nb.Cells {
			for _, o := range c.Outputs {
				h := o.DataText("text/html")
				if !strings.Contains(h, "echarts") {
					continue
				}
				charts++
				svg := o.DataText("image/svg+xml")
				if !strings.HasPrefix(svg, "<svg") || !strings.HasSuffix(strings.TrimSpace(svg), "</svg>") {
					t.Errorf("%s cell %d: a chart without its static picture", filepath.Base(p), i+1)
				}
			}
		}
	}
	if charts == 0 {
		t.Fatal("no charts in the book")
	}
	nb, err := notebook.Read(filepath.Join("../../notebooks", sampleChapter))
	if err != nil {
		t.Fatal(err)
	}
	var svg string
	for _, c := range nb.Cells {
		for _, o := range c.Outputs {
			if s := o.DataText("image/svg+xml"); s != "" && svg == "" {
				svg = s
			}
		}
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "chart.svg"), []byte(svg), 0o644); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(dir, "preview.html")
	if err := os.WriteFile(page, []byte(`<!DOCTYPE html><html><body><img id="picture" src="chart.svg"></body></html>`), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, requests := browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+page), chromedp.WaitReady(chromedp.ID("picture"))); err != nil {
		t.Fatal(err)
	}
	size, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](`[document.getElementById('picture').naturalWidth, document.getElementById('picture').naturalHeight]`))
	if err != nil {
		t.Fatal(err)
	}
	shot, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.ID("picture")))
	if err != nil {
		t.Fatal(err)
	}
	if len(size) != 2 || size[0] < 300 || size[1] < 200 {
		t.Errorf("the picture loads as %v pixels", size)
	}
	if n := inked(t, shot); n < 2000 {
		t.Errorf("the picture inks %d pixels: not drawn", n)
	}
	if dir := os.Getenv("CHART_SCREENSHOTS"); dir != "" {
		os.WriteFile(filepath.Join(dir, "static.png"), shot, 0o644)
	}
	checkLocal(t, requests())
	t.Logf("%d chart outputs carry a picture; %s's is %dx%d", charts, sampleChapter, size[0], size[1])
}
