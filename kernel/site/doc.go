// Package site exports the course's committed notebooks, with their recorded outputs, as a static
// web site that works offline: from file:// or from any static host.
//
// One page is written per notebook, plus an index with the chapter table and a note on running
// the course locally; each page links to a copy of its notebook. Markdown is rendered by goldmark,
// Go code is highlighted by chroma (CSS classes), math is typeset in the browser by KaTeX and
// search runs in the browser with MiniSearch over a corpus written at build time (also as a
// script, since browsers refuse fetch() from file://). JavaScript, CSS and fonts are copied from
// npm packages that set-up installs: a page never loads anything from the network. CheckLinks
// verifies that of an exported site.
//
// Chart outputs inline the whole echarts library in every chart. The export finds that library,
// byte for byte the echarts.min.js the charts were made with, at the start of a chart's script,
// serves it once as a file under assets/lib and loads it with a <script src> in its place; the
// chart's own code stays inline and runs unchanged after it. Anything else is left as recorded.
package site
