// Package site exports the course's committed notebooks, with their recorded outputs, as a static
// web site that works offline: from file:// or from any static host.
//
// One page is written per notebook, plus an index with the chapter table. Markdown is rendered by
// goldmark, Go code is highlighted by chroma (CSS classes), math is typeset in the browser by KaTeX
// and search runs in the browser with MiniSearch over a corpus written at build time. All
// JavaScript, CSS and fonts are copied from npm packages installed by setup.sh: a page never loads
// anything from the network.
//
// Chart outputs inline the whole echarts library in every chart. The export recognises an inlined
// echarts bundle, writes it once into the assets folder and points the chart at it with a local
// <script src>, so the chart's own initialisation script runs unchanged against the same library.
package site
