// Package sources keeps the book's source ledger (notebooks/sources.tsv) and its citations
// honest, the way package check keeps the recorded outputs honest.
//
// The ledger has one row per external source: a short key, authors, title, venue, the source's
// date, its address, the date it was inspected (or why not) and what was checked there. A
// chapter cites a source with a markdown link to its entry, [Ziegler et al., 2019](references.ipynb#ziegler2019),
// which renders as a link in Jupyter and on the site, in both editions.
//
// Check holds the notebooks and the READMEs to the ledger: every citation resolves to an entry and
// its link text carries the entry's year; every entry is cited; every English sentence that says
// "reported" or names a work by "et al.", and every paragraph of a section titled
// "... (reported)", cites its source; each
// Chinese cell cites the keys of its English cell; the ledger is well formed; and the generated
// References notebooks (references.ipynb in each edition, Jupyter's target of the links) are
// current. Each problem names the file, the cell and the key.
//
// Written by hand: no notebook tool checks citations against a ledger.
package sources
