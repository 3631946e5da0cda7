// Package notebook reads and writes Jupyter notebooks (nbformat 4) the way Jupyter itself writes
// them, so the book tooling can execute, compare and rewrite the course's chapters without
// reformatting what it does not change.
package notebook
