package site

import (
	"context"
	"encoding/json"
	"html"
	"image/png"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// chromium finds Debian's chromium, which setup.sh installs.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "/usr/bin/chromium"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Fatal("chromium missing: run `make setup`")
	return ""
}

// headless runs chromium on a page with no network: every host name fails to resolve and every
// connection goes to a closed local port, so only file:// loads can succeed.
func headless(t *testing.T, page string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	base := []string{
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + t.TempDir(),
		"--host-resolver-rules=MAP * ~NOTFOUND",
		"--proxy-server=127.0.0.1:9", "--proxy-bypass-list=<-loopback>",
	}
	cmd := exec.CommandContext(ctx, chromium(t), append(append(base, args...), page)...)
	var stderr limitedBuffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium %v: %v\n%s", args, err, stderr.b)
	}
	return out
}

// limitedBuffer keeps the end of chromium's chatty stderr for error messages.
type limitedBuffer struct{ b []byte }

func (l *limitedBuffer) Write(p []byte) (int, error) {
	l.b = append(l.b, p...)
	if len(l.b) > 8000 {
		l.b = l.b[len(l.b)-8000:]
	}
	return len(p), nil
}

func fileURL(path, query string) string {
	return (&url.URL{Scheme: "file", Path: path, RawQuery: query}).String()
}

// selfTest is what a page's script reports when opened with ?selftest=1.
type selfTest struct {
	Math         int `json:"math"`
	MathRendered int `json:"mathRendered"`
	MathErrors   int `json:"mathErrors"`
	KatexFonts   struct {
		Loaded int `json:"loaded"`
		Failed int `json:"failed"`
	} `json:"katexFonts"`
	Charts []struct {
		Width  int `json:"width"`
		Height int `json:"height"`
		Ink    int `json:"ink"`
	} `json:"charts"`
	NonLocalResources []string `json:"nonLocalResources"`
	Errors            []string `json:"errors"`
	Search            struct {
		Query string `json:"query"`
		Hits  int    `json:"hits"`
		Top   string `json:"top"`
	} `json:"search"`
	TimedOut bool `json:"timedOut"`
}

// harness opens each page in turn in a frame and collects what each page's self-test posts, so
// one browser run checks a whole site. A page that reports nothing in 60 s (of the browser's
// virtual time) is recorded as timed out.
const harness = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>self-test</title></head><body>
<pre id="selftest-all"></pre>
<script>
var pages = PAGES, results = {}, i = 0, timer = null;
function next() {
  var old = document.querySelector('iframe');
  if (old) old.remove();
  if (i >= pages.length) {
    document.getElementById('selftest-all').textContent = JSON.stringify(results);
    return;
  }
  var f = document.createElement('iframe');
  f.width = 1280; f.height = 1000;
  f.src = pages[i] + '?selftest=1';
  document.body.appendChild(f);
  timer = setTimeout(function () { results[pages[i]] = { timedOut: true }; i++; next(); }, 60000);
}
window.addEventListener('message', function (e) {
  if (!e.data || !e.data.selftest || i >= pages.length) return;
  clearTimeout(timer);
  results[pages[i]] = e.data.selftest;
  i++;
  next();
});
next();
</script></body></html>
`

var harnessResult = regexp.MustCompile(`(?s)<pre id="selftest-all">(.*?)</pre>`)

// selfTestSite runs the self-test of every HTML page of the site in dir, in one browser run.
func selfTestSite(t *testing.T, dir string) map[string]selfTest {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join(dir, "*.html"))
	if err != nil || len(pages) == 0 {
		t.Fatalf("no pages in %s (%v)", dir, err)
	}
	var names []string
	for _, p := range pages {
		names = append(names, filepath.Base(p))
	}
	list, _ := json.Marshal(names)
	h := filepath.Join(t.TempDir(), "harness.html")
	// The harness sits outside the site, which it reaches by relative path.
	rel, err := filepath.Rel(filepath.Dir(h), dir)
	if err != nil {
		t.Fatal(err)
	}
	body := strings.Replace(harness, "PAGES", string(list), 1)
	body = strings.Replace(body, "f.src = pages[i]", "f.src = "+jsString(filepath.ToSlash(rel)+"/")+" + pages[i]", 1)
	if err := os.WriteFile(h, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	budget := 20_000 + 10_000*len(names) // ms of virtual time
	dom := headless(t, fileURL(h, ""), "--window-size=1400,1200", "--virtual-time-budget="+itoa(budget), "--dump-dom")
	m := harnessResult.FindSubmatch(dom)
	if m == nil || len(m[1]) == 0 {
		t.Fatalf("the self-test harness reported nothing; DOM ends:\n%s", tail(dom, 2000))
	}
	results := map[string]selfTest{}
	if err := json.Unmarshal([]byte(html.UnescapeString(string(m[1]))), &results); err != nil {
		t.Fatalf("self-test results %s: %v", m[1], err)
	}
	for _, n := range names {
		if _, ok := results[n]; !ok {
			t.Errorf("%s: no self-test result", n)
		}
	}
	return results
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// checkPage fails the test for what no page of the site may show: untypeset math, missing
// fonts, blank charts, loads from the network, script errors, a search that finds nothing.
func checkPage(t *testing.T, page string, r selfTest) {
	t.Helper()
	if r.TimedOut {
		t.Errorf("%s: the page never reported its self-test", page)
		return
	}
	if r.MathRendered != r.Math || r.MathErrors != 0 {
		t.Errorf("%s: %d formulas, %d typeset, %d KaTeX errors", page, r.Math, r.MathRendered, r.MathErrors)
	}
	if r.Math > 0 && (r.KatexFonts.Loaded == 0 || r.KatexFonts.Failed != 0) {
		t.Errorf("%s: KaTeX fonts: %d loaded, %d failed", page, r.KatexFonts.Loaded, r.KatexFonts.Failed)
	}
	// A chart with title, axes and labels inks thousands of pixels; a blank canvas none. (In the
	// harness's frame an animation may stop midway, so the bar is set by what a chart draws first.)
	for i, c := range r.Charts {
		if c.Width < 100 || c.Height < 100 || c.Ink < 2000 {
			t.Errorf("%s: chart %d: canvas %dx%d with %d inked pixels: not drawn", page, i+1, c.Width, c.Height, c.Ink)
		}
	}
	if len(r.NonLocalResources) != 0 {
		t.Errorf("%s: loaded from outside the site: %v", page, r.NonLocalResources)
	}
	if len(r.Errors) != 0 {
		t.Errorf("%s: script errors: %v", page, r.Errors)
	}
	if r.Search.Hits == 0 || r.Search.Top == "" {
		t.Errorf("%s: search for %q found nothing", page, r.Search.Query)
	}
}

var selftestResult = regexp.MustCompile(`<pre id="selftest-result">(.*?)</pre>`)

// selfTestPage opens one page from file://, as a reader would, and returns its self-test.
func selfTestPage(t *testing.T, page string) selfTest {
	t.Helper()
	dom := headless(t, fileURL(page, "selftest=1"), "--virtual-time-budget=20000", "--dump-dom")
	m := selftestResult.FindSubmatch(dom)
	if m == nil {
		t.Fatalf("%s wrote no self-test result; DOM ends:\n%s", page, tail(dom, 2000))
	}
	var r selfTest
	if err := json.Unmarshal([]byte(html.UnescapeString(string(m[1]))), &r); err != nil {
		t.Fatalf("%s: self-test result %s: %v", page, m[1], err)
	}
	return r
}

// TestBrowser opens a chapter with math and two charts from file:// in headless Chromium with the
// network cut off, and checks that KaTeX typeset every formula, each chart drew on its canvas and
// search works; then every page of the site the same way. It also takes a screenshot of the
// chapter (kept where $SITE_SCREENSHOT says).
func TestBrowser(t *testing.T) {
	chromium(t)
	out, _ := buildFixtures(t)
	ch1 := selfTestPage(t, filepath.Join(out, "ch01_returns.html"))
	js, _ := json.Marshal(ch1)
	t.Logf("ch01_returns.html self-test: %s", js)
	checkPage(t, "ch01_returns.html", ch1)
	if ch1.Math < 5 || len(ch1.Charts) != 2 {
		t.Errorf("ch01_returns.html: %d formulas and %d charts, want at least 5 and 2", ch1.Math, len(ch1.Charts))
	}
	for page, r := range selfTestSite(t, out) {
		checkPage(t, page, r)
	}
	// The Chinese page: the same formulas and charts, and search finds its Chinese title.
	zh := selfTestPage(t, filepath.Join(out, "zh", "ch01_returns.html"))
	checkPage(t, "zh/ch01_returns.html", zh)
	if zh.Math != ch1.Math || len(zh.Charts) != 2 || zh.Search.Query != "回报与折扣" || zh.Search.Top != "ch01_returns.html#回报与折扣" {
		t.Errorf("zh/ch01_returns.html: %d formulas (English %d), %d charts, search %+v; want the same formulas, 2 charts and a hit on its own page for 回报与折扣",
			zh.Math, ch1.Math, len(zh.Charts), zh.Search)
	}
	for page, r := range selfTestSite(t, filepath.Join(out, "zh")) {
		checkPage(t, "zh/"+page, r)
	}

	shot := os.Getenv("SITE_SCREENSHOT")
	if shot == "" {
		shot = filepath.Join(t.TempDir(), "ch01_returns.png")
	} else if abs, err := filepath.Abs(shot); err == nil {
		shot = abs
	}
	headless(t, fileURL(filepath.Join(out, "ch01_returns.html"), ""), "--virtual-time-budget=10000",
		"--hide-scrollbars", "--window-size=1400,1500", "--screenshot="+shot)
	f, err := os.Open(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 1400 || b.Dy() != 1500 {
		t.Errorf("screenshot is %v", b)
	}
	t.Logf("screenshot: %s", shot)
	if zhShot := os.Getenv("SITE_SCREENSHOT_ZH"); zhShot != "" {
		if abs, err := filepath.Abs(zhShot); err == nil {
			zhShot = abs
		}
		headless(t, fileURL(filepath.Join(out, "zh", "ch01_returns.html"), ""), "--virtual-time-budget=10000",
			"--hide-scrollbars", "--window-size=1400,1500", "--screenshot="+zhShot)
		t.Logf("Chinese screenshot: %s", zhShot)
	}
}

// TestCourseSite exports the course's own notebooks, both editions, and checks every page: links,
// and in the browser math, charts, search and no network. It is skipped only while the course has
// no notebooks yet.
func TestCourseSite(t *testing.T) {
	const course = "../../notebooks"
	if nbs, _ := filepath.Glob(filepath.Join(course, "*.ipynb")); len(nbs) == 0 {
		t.Skipf("no notebooks in %s yet", course)
	}
	requireAssets(t)
	chromium(t)
	out := filepath.Join(t.TempDir(), "site")
	zh := filepath.Join(course, "zh")
	if nbs, _ := filepath.Glob(filepath.Join(zh, "*.ipynb")); len(nbs) == 0 {
		zh = ""
	}
	rep, err := Build(Options{Notebooks: course, Chinese: zh, Out: out, NodeModules: nodeModules, ChartLibrary: echartsFile})
	if err != nil {
		t.Fatal(err)
	}
	if rep.LargeScripts != 0 {
		t.Errorf("%d inline scripts over 100 kB in the pages: a notebook still inlines the chart library", rep.LargeScripts)
	}
	problems, err := CheckLinks(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
	for page, r := range selfTestSite(t, out) {
		checkPage(t, page, r)
	}
	if zh != "" {
		for page, r := range selfTestSite(t, filepath.Join(out, "zh")) {
			checkPage(t, "zh/"+page, r)
		}
	}
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}
