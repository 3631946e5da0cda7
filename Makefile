# The course's two commands are `make course` and `make test`; see README.md.
#
# Every Go command of the course needs Go 1.27 (GoMLX v0.28 requires it; the go command fetches
# it) and SIMD (GoMLX's fast CPU kernels). A machine starts on its own Go and ignores go.mod's
# toolchain line, so these are set here, in .ci/run, in the kernel spec and in the Dockerfile.
export GOTOOLCHAIN := go1.27.3
export GOEXPERIMENT := simd
export GOMLX_NO_AUTO_INSTALL := 1
# GoMLX's AVX-512 kernels round differently from its AVX2 ones: off, so that the outputs recorded in
# the notebooks are what every machine computes (backend.NoAVX512Env). The Go runtime's AVX-512 too:
# Go's simd package would run GoMLX's other vector code 16 lanes wide, and its softmax would sum in
# another order (backend.NoAVX512Godebug). Any GODEBUG settings of your own are kept.
export GOMLX_GO_SIMD_AVX512 := false
comma := ,
export GODEBUG := $(if $(GODEBUG),$(GODEBUG)$(comma))cpu.avx512f=off

AGENTRL := .cache/bin/agentrl

.PHONY: setup setup-test course book test vet site library check agentrl-xla

## setup: install whatever is missing (Jupyter, GoNB, echarts, the kernel, component dependencies).
setup:
	bash kernel/setup.sh

setup-test:
	AGENTRL_TEST_DEPS=1 bash kernel/setup.sh

## course: set up, then open the course in Jupyter on localhost (EDITION=zh: the Chinese edition).
EDITION ?= en
course: setup
	$(AGENTRL) course --edition $(EDITION)

## book: set up, then execute the whole book headless and check every recorded output.
book: setup
	$(AGENTRL) course --headless

## test: everything CI runs (its set-up also installs what only tests need, such as Chromium).
test: setup-test vet
	go test ./...
	$(AGENTRL) book build-library --check
	$(AGENTRL) book zh check
	$(AGENTRL) book sources check
	$(AGENTRL) study list -check
	$(AGENTRL) study verify -sample 1 -max-job 5m
	$(AGENTRL) book check

vet:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { echo "gofmt needed:"; gofmt -l $$(git ls-files '*.go'); exit 1; }
	go vet ./...
	CGO_ENABLED=1 go build -tags xla -o /dev/null ./cmd/agentrl

## agentrl-xla: agentrl with GoMLX's XLA backend (cgo), for a machine with an NVIDIA GPU: eval
## "$(bash backend/gpu.sh)" there, then run .cache/bin/agentrl-xla (README, "Using a GPU").
agentrl-xla:
	CGO_ENABLED=1 go build -tags xla -o .cache/bin/agentrl-xla ./cmd/agentrl

## site: build the course's static web site into site/ (works offline: open site/index.html).
site: setup
	$(AGENTRL) book site --out site

## library: regenerate agentrl/ from the notebooks' //@save cells.
library:
	$(AGENTRL) book build-library

## check: execute and check chapters, e.g. `make check CH="ch00 ch06"`.
check:
	$(AGENTRL) book check $(CH)
