// Package chart turns a go-echarts chart into a notebook output that draws offline everywhere the
// book is read, without carrying the charting library in every chart.
//
// A chart's output is one display bundle:
//
//   - text/html: the chart's element, holding a static SVG picture of the chart, and a short script
//     with the chart's option. The script loads the echarts library once per page from LibraryPath,
//     relative to the page (a file set-up writes next to the notebooks, and the site export next
//     to its pages), then replaces the picture by the interactive chart. Where the library cannot
//     be loaded (a page moved away from the notebooks, a preview that runs no script), the
//     picture stays.
//   - image/svg+xml: the same picture on its own, for viewers that show images but not HTML.
//   - text/plain: the chart's title, for terminals.
//
// The picture comes from echarts itself, through its server-side SVG renderer run by Node.js
// (installed by set-up with the npm package), so the static and the interactive chart are drawn by
// the same code from the same option, and the same chart renders to the same bytes on every run,
// which the book's checker requires. No Go library renders echarts options; a second renderer
// written here would draw different charts from the ones readers see.
package chart
