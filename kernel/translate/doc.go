// Package translate keeps the course's Chinese edition in step with the English one.
//
// The Chinese edition is a second set of notebooks (notebooks/zh/, same file names). Its markdown
// cells are translations; its code cells, outputs and metadata are the English ones, byte for
// byte, so it needs no execution of its own. Each translated markdown cell records, in its
// metadata, the SHA-256 of the English text it translates: when the English cell changes, the
// recorded hash no longer matches and the cell is stale.
//
// Check holds a Chinese notebook to its English twin: the same cells in the same order, identical
// code, outputs and metadata, every markdown cell translated from the current English, the math,
// code spans, link targets and heading levels of each translation equal to the English ones, and
// the glossary (notebooks/zh/glossary.tsv) applied. Sync rebuilds a Chinese notebook from the
// English one, carrying code and outputs over and keeping every translation that is still
// current; it returns the cells left to translate, which WriteWorklist puts in a file an author
// fills in and Apply writes back.
//
// Written by hand: no notebook tool compares two editions of a notebook cell by cell.
package translate
