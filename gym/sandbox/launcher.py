# Starts one sandbox worker in fresh namespaces on behalf of the Go pool.
#
# Go could create the namespaces itself (SysProcAttr.Cloneflags), but a clone that makes a user
# namespace cannot use vfork: the Go process is forked, and every page of its heap becomes
# copy-on-write. After a worker restart the trainer's next step then faults on each page it
# touches again (about 8 s for a 2 GB heap on the machines the course was measured on). So Go
# starts this small interpreter the cheap way, and it does what the clone did:
#
#   launcher (host namespaces) -> child: unshare(user, mount, pid, net, ipc, uts)
#   the launcher writes the child's uid and gid maps; the child becomes uid 0 there and forks
#   the worker, which is PID 1 of the new PID namespace and execs worker.py.
#
# Every process dies with its parent (PR_SET_PDEATHSIG), and all three share the process group
# Go made, so killing that group ends the namespace. argv: launch config (JSON), worker source,
# worker config.
import ctypes
import json
import os
import sys

CFG = json.loads(sys.argv[1])
LIBC = ctypes.CDLL(None, use_errno=True)


def fail(what):
    print("sandbox launcher: %s: %s" % (what, os.strerror(ctypes.get_errno())), file=sys.stderr, flush=True)
    os._exit(1)


def die_with_parent():
    if LIBC.prctl(1, 9, 0, 0, 0) != 0:  # PR_SET_PDEATHSIG, SIGKILL
        fail("prctl")


def wait_exit(pid):
    _, status = os.waitpid(pid, 0)
    os._exit(os.waitstatus_to_exitcode(status) & 0xFF)


launcher = os.getpid()
unshared_r, unshared_w = os.pipe()
mapped_r, mapped_w = os.pipe()
child = os.fork()
if child == 0:
    die_with_parent()
    if os.getppid() != launcher:
        os._exit(1)
    os.close(unshared_r)
    os.close(mapped_w)
    if LIBC.unshare(CFG["flags"]) != 0:
        fail("unshare")
    os.write(unshared_w, b"u")
    if os.read(mapped_r, 1) != b"m":
        os._exit(1)
    # Become uid 0 of the new namespace before exec: a process whose uid is unmapped there loses
    # its capabilities at exec and could not mount anything.
    os.setresgid(0, 0, 0)
    os.setresuid(0, 0, 0)
    worker = os.fork()
    if worker == 0:
        die_with_parent()
        py = CFG["python"]
        os.execv(py, [py, "-I", "-S", "-B", "-c", sys.argv[2], sys.argv[3]])
    wait_exit(worker)

os.close(unshared_w)
os.close(mapped_r)
if os.read(unshared_r, 1) != b"u":
    wait_exit(child)  # the child said why on stderr
if CFG["deny_setgroups"]:
    with open("/proc/%d/setgroups" % child, "w") as f:
        f.write("deny")
for name in ("uid_map", "gid_map"):
    with open("/proc/%d/%s" % (child, name), "w") as f:
        f.write(CFG[name])
os.write(mapped_w, b"m")
wait_exit(child)
