// Package check compares what a notebook's code cells print when executed anew with what the
// committed notebook records, and re-records outputs for authors.
//
// The rule: each code cell's stdout, its stderr and its rich outputs (HTML, charts, images, errors,
// in order) must be identical to the recorded ones, except inside wall-clock measurements written
// as "[wall: ...]", whose contents are not compared (see Mask). Nothing else may vary: outputs
// come from code with fixed seeds. The notebook's metadata.language_info must be the kernel's (see
// LanguageInfo).
package check
