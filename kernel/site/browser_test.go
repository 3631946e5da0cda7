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
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
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

var selftestResult = regexp.MustCompile(`<pre id="selftest-result">(.*?)</pre>`)

// selfTest is what the page script reports when opened with ?selftest=1.
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
}

// TestBrowser opens a chapter with math and two charts from file:// in headless Chromium with the
// network cut off, and checks that KaTeX typeset every formula, each chart drew on its canvas and
// search found the chapter. It also takes a screenshot (kept where $SITE_SCREENSHOT says).
func TestBrowser(t *testing.T) {
	chromium(t)
	out, _ := buildFixtures(t)
	page := filepath.Join(out, "ch01_returns.html")

	dom := headless(t, fileURL(page, "selftest=1"), "--virtual-time-budget=20000", "--dump-dom")
	m := selftestResult.FindSubmatch(dom)
	if m == nil {
		t.Fatalf("the page wrote no self-test result; DOM ends:\n%s", tail(dom, 2000))
	}
	var r selfTest
	if err := json.Unmarshal([]byte(html.UnescapeString(string(m[1]))), &r); err != nil {
		t.Fatalf("self-test result %s: %v", m[1], err)
	}
	t.Logf("self-test: %s", html.UnescapeString(string(m[1])))
	if r.Math < 5 || r.MathRendered != r.Math || r.MathErrors != 0 {
		t.Errorf("math: %d formulas, %d typeset, %d KaTeX errors", r.Math, r.MathRendered, r.MathErrors)
	}
	if r.KatexFonts.Loaded == 0 || r.KatexFonts.Failed != 0 {
		t.Errorf("KaTeX fonts: %d loaded, %d failed", r.KatexFonts.Loaded, r.KatexFonts.Failed)
	}
	if len(r.Charts) != 2 {
		t.Fatalf("%d chart canvases, want 2", len(r.Charts))
	}
	// A chart with title, axes and labels inks thousands of pixels; a blank canvas none.
	for i, c := range r.Charts {
		if c.Width < 600 || c.Height < 300 || c.Ink < 2000 {
			t.Errorf("chart %d: canvas %dx%d with %d inked pixels: not drawn", i+1, c.Width, c.Height, c.Ink)
		}
	}
	if len(r.NonLocalResources) != 0 {
		t.Errorf("the page loaded from outside the site: %v", r.NonLocalResources)
	}
	if len(r.Errors) != 0 {
		t.Errorf("script errors: %v", r.Errors)
	}
	if r.Search.Hits == 0 || r.Search.Top == "" {
		t.Errorf("search for %q: %d hits", r.Search.Query, r.Search.Hits)
	}

	shot := os.Getenv("SITE_SCREENSHOT")
	if shot == "" {
		shot = filepath.Join(t.TempDir(), "ch01_returns.png")
	} else if abs, err := filepath.Abs(shot); err == nil {
		shot = abs
	}
	headless(t, fileURL(page, ""), "--virtual-time-budget=10000", "--hide-scrollbars",
		"--window-size=1400,1500", "--screenshot="+shot)
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
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}
