// Package site exports the course's committed notebooks, with their recorded outputs, as a static
// web site that works offline: from file:// or from any static host.
//
// One page is written per notebook, plus an index with the chapter table and a note on running
// the course locally; each page links to a copy of its notebook. The References notebook that
// package sources generates is a page too, links between notebooks become links between pages,
// and each chapter ends with the sources it cites (from the ledger beside the notebooks). Markdown is rendered by goldmark,
// Go code is highlighted by chroma (CSS classes), math is typeset in the browser by KaTeX and
// search runs in the browser with MiniSearch over a corpus written at build time (also as a
// script, since browsers refuse fetch() from file://). JavaScript, CSS and fonts are copied from
// npm packages that set-up installs: a page never loads anything from the network. CheckLinks
// verifies that of an exported site.
//
// Outputs are shown as recorded. Chart outputs (package chart) load echarts from chart.LibraryPath
// relative to their page, so the export writes the one copy of the library there, beside the
// pages, as set-up does beside the notebooks.
package site
