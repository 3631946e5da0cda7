// Package execute runs a notebook headless through a real Jupyter kernel (the course's GoNB
// kernel), cell by cell with a per-cell timeout, and reports the first cell that fails. It is the
// engine under the book checker; it knows nothing of any chapter.
package execute
