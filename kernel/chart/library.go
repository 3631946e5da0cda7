package chart

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
)

// LibraryPath is where a chart's script loads echarts from, relative to the page the chart is
// on: next to the notebooks (for Jupyter and for `jupyter nbconvert --to html` pages written
// beside them) and next to the site's pages.
const LibraryPath = "lib/echarts.js"

// Library returns the file that charts load, made from echarts.min.js. Pages that load
// require.js (classic Jupyter, nbconvert's HTML) would capture echarts' UMD bundle as an anonymous
// module, which fails when it is loaded by a plain <script> and leaves window.echarts undefined;
// run with define, exports and module hidden, the bundle sets window.echarts on every page.
func Library(echartsJS []byte) []byte {
	var b bytes.Buffer
	b.WriteString("/* echarts for the course's charts: echarts.min.js from its npm package, run with\n" +
		"   define, exports and module hidden so that require.js cannot capture it. */\n")
	b.WriteString("(function (define, exports, module) {\n")
	b.Write(echartsJS)
	b.WriteString("\n}).call(window);\n")
	return b.Bytes()
}

// WriteLibrary writes the charts' library under dir (at LibraryPath), made from the echarts
// file, and returns its path. It leaves an up-to-date file untouched.
func WriteLibrary(dir, echartsFile string) (string, error) {
	js, err := os.ReadFile(echartsFile)
	if err != nil {
		return "", fmt.Errorf("echarts library: %w (run `make setup`)", err)
	}
	lib := Library(js)
	path := filepath.Join(dir, filepath.FromSlash(LibraryPath))
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, lib) {
		return path, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", err
	}
	return path, os.WriteFile(path, lib, 0o644)
}
