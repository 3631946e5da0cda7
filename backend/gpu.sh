#!/usr/bin/env bash
# Prints the environment that runs the course's models on an NVIDIA GPU, for a shell to eval:
#
#   eval "$(bash backend/gpu.sh)"
#   .cache/bin/agentrl-xla bench qwen3        # an agentrl built by `make agentrl-xla`
#
# GoMLX reaches the GPU through XLA and a PJRT plugin. This script finds the CUDA plugin that JAX's
# pip package jax-cuda13-pjrt installs (site-packages/jax_plugins/xla_cuda13/xla_cuda_plugin.so),
# the CUDA libraries that the nvidia-* pip packages install beside it, and libdevice, which XLA
# compiles its own kernels against, and prints:
#   GOMLX_BACKEND       xla:<the plugin's absolute path> (go-xla turns TF32 matrix products on by
#                       default on CUDA; append ,notf32 for exact float32)
#   LD_LIBRARY_PATH     every site-packages/nvidia/*/lib, before what was there: the plugin loads
#                       cuBLAS, cuDNN and the rest from them
#   XLA_FLAGS           --xla_gpu_cuda_data_dir=<the folder holding nvvm/libdevice>
#   GOPJRT_CUDA_CHECKS  0: go-xla's own check looks for nvidia/ beside jax_plugins/, where pip
#                       does not put it, and warns; the variables above already say where it is
#   PATH                with ptxas first, when a pip package ships one
# It reads nothing from the network and installs nothing.
#
# Settings:
#   AGENTRL_PJRT_PLUGIN  the plugin to use instead of searching (its site-packages is searched
#                        for the NVIDIA libraries)
#   AGENTRL_PYTHON       the interpreter whose site-packages hold JAX (default python3)
#   AGENTRL_PYTHON_SITE  ':'-separated site-packages folders to search instead of asking it
set -euo pipefail
py="${AGENTRL_PYTHON:-python3}"
if ! command -v "$py" >/dev/null; then
	echo "gpu.sh: $py not found: the PJRT plugin and NVIDIA libraries are looked for in its site-packages (set AGENTRL_PYTHON)" >&2
	exit 1
fi
exec "$py" - <<'PY'
import glob, os, shlex, site, sys

def fail(msg):
    print("gpu.sh: " + msg, file=sys.stderr)
    sys.exit(1)

def site_dirs():
    if os.environ.get("AGENTRL_PYTHON_SITE"):
        return [d for d in os.environ["AGENTRL_PYTHON_SITE"].split(":") if os.path.isdir(d)]
    dirs = list(site.getsitepackages()) + [site.getusersitepackages()]
    dirs += [p for p in sys.path if p.endswith(("site-packages", "dist-packages"))]
    return [d for d in dict.fromkeys(dirs) if os.path.isdir(d)]

sites = site_dirs()
plugin = os.environ.get("AGENTRL_PJRT_PLUGIN", "")
if plugin:
    if not os.path.isfile(plugin):
        fail(f"AGENTRL_PJRT_PLUGIN={plugin} is not a file")
    plugin = os.path.abspath(plugin)
    # jax_plugins/<name>/<plugin>.so: its site-packages holds the nvidia-* packages it came with.
    sites.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(plugin))))
else:
    for pattern in ("xla_cuda13/xla_cuda_plugin.so", "xla_cuda12/xla_cuda_plugin.so", "*cuda*/*.so"):
        found = sorted(f for d in sites for f in glob.glob(os.path.join(d, "jax_plugins", pattern)))
        if found:
            plugin = found[0]
            break
if not plugin:
    fail("no PJRT CUDA plugin in " + (", ".join(sites) or "any site-packages") +
         ": install JAX's CUDA plugin, the pip package jax-cuda13-pjrt (with jax-cuda13-plugin and"
         " its nvidia-* libraries), or set AGENTRL_PJRT_PLUGIN=/path/to/xla_cuda_plugin.so")

libs, data_dir, ptxas = [], "", ""
for d in dict.fromkeys(sites):
    nv = os.path.join(d, "nvidia")
    libs += [l for l in sorted(glob.glob(os.path.join(nv, "*", "lib"))) if glob.glob(os.path.join(l, "*.so*"))]
    for bc in sorted(glob.glob(os.path.join(nv, "**", "nvvm", "libdevice", "libdevice*.bc"), recursive=True)):
        data_dir = data_dir or os.path.dirname(os.path.dirname(os.path.dirname(bc)))
    for px in sorted(glob.glob(os.path.join(nv, "**", "bin", "ptxas"), recursive=True)):
        ptxas = ptxas or os.path.dirname(px)
cuda_homes = [os.environ[k] for k in ("CUDA_HOME", "CUDA_PATH") if os.environ.get(k)]
for home in cuda_homes + sorted(glob.glob("/usr/local/cuda*"), reverse=True):
    if not data_dir and glob.glob(os.path.join(home, "nvvm", "libdevice", "libdevice*.bc")):
        data_dir = home

print(f"export GOMLX_BACKEND={shlex.quote('xla:' + plugin)}")
if libs:
    print(f"export LD_LIBRARY_PATH={shlex.quote(':'.join(libs))}" + "${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}")
else:
    print("gpu.sh: warning: no site-packages/nvidia/*/lib folders: the plugin must find CUDA's libraries on its own", file=sys.stderr)
if data_dir:
    print(f"export XLA_FLAGS={shlex.quote('--xla_gpu_cuda_data_dir=' + data_dir)}")
else:
    print("gpu.sh: warning: no nvvm/libdevice found (pip package nvidia-cuda-nvcc, or CUDA_HOME): XLA may fail to compile its kernels", file=sys.stderr)
print("export GOPJRT_CUDA_CHECKS=0")
if ptxas:
    print(f"export PATH={shlex.quote(ptxas)}:$PATH")
PY
