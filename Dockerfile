# The course in a container: the same set-up script as on a workstation (kernel/setup.sh), on
# Debian with Go. `docker build -t agentrl-course . && docker run -p 8888:8888 agentrl-course`,
# then open the address it prints (replace 0.0.0.0 by localhost).
FROM golang:1.26-bookworm

# Go 1.27 with SIMD for GoMLX; never download an XLA plugin; no AVX-512 kernels and no AVX-512 in
# the Go runtime, so that every machine computes the notebooks' numbers. Same as the Makefile and
# .ci/run.
ENV GOTOOLCHAIN=go1.27.3 \
    GOEXPERIMENT=simd \
    GOMLX_NO_AUTO_INSTALL=1 \
    GOMLX_GO_SIMD_AVX512=false \
    GODEBUG=cpu.avx512f=off

WORKDIR /course
COPY . .
RUN bash kernel/setup.sh

EXPOSE 8888
CMD ["/course/.cache/bin/agentrl", "course", "--ip", "0.0.0.0"]
