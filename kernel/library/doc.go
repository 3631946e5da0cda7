// Package library builds the agentrl package from the notebooks, the way D2L builds its library:
// every code cell whose first line is //@save is collected, in reading order, into one generated
// file per chapter (imports fixed, "agentrl." qualifiers dropped, gofmt'ed, each declaration's doc
// comment naming the section that defines it), and a check reports when the folder and the
// notebooks have drifted apart.
package library
