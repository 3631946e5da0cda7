#!/bin/sh
# The `go` that the course's notebook kernel finds first on its PATH.
#
# GoNB starts every notebook in a fresh module made by `go mod init gonb_<id>`, and before each cell
# it runs `go get` to require whatever the cell imports. The module proxy this course is built
# against serves exact versions but refuses version lists, so that `go get` fails for GoMLX, GoNB's
# gonbui and this course's own packages. Right after GoNB's `go mod init`, this wrapper makes the new
# module require this checkout's module (replaced by the checkout itself) and copies its go.sum:
# every import then resolves to the pinned versions, offline, with no set-up cell in any notebook.
# Every other invocation is passed through unchanged.
set -e
: "${AGENTRL_REAL_GO:?the kernel spec must set AGENTRL_REAL_GO (run make setup)}"
: "${AGENTRL_ROOT:?the kernel spec must set AGENTRL_ROOT (run make setup)}"
if [ "$1" = mod ] && [ "$2" = init ] && [ "${3#gonb_}" != "$3" ]; then
	"$AGENTRL_REAL_GO" "$@"
	"$AGENTRL_REAL_GO" mod edit -require=github.com/agenticrl/course@v0.0.0 \
		-replace=github.com/agenticrl/course="$AGENTRL_ROOT"
	cp "$AGENTRL_ROOT/go.sum" go.sum
	exit 0
fi
# GoNB builds every cell into a binary it runs once: leaving out the symbol table and DWARF
# (-s -w) shortens each link and changes nothing the cell computes (a binary importing agentrl
# linked in 1.4 s against 1.8-2.0 s; Chapters 0 and 2, 16 cells, checked in 26.0-26.1 s against
# 27.4-29.0 s). A cell's own %goflags come after these, so an -ldflags of its own replaces them.
if [ "$1" = build ]; then
	case "$PWD" in
	*/gonb_*)
		shift
		exec "$AGENTRL_REAL_GO" build -ldflags="-s -w" "$@"
		;;
	esac
fi
exec "$AGENTRL_REAL_GO" "$@"
