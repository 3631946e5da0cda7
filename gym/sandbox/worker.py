# The warm test worker. It is started by the Go sandbox with two pipes
# (fd 3: requests, fd 4: responses), first confines itself (mount namespace,
# pivot_root, rlimits, unprivileged uid), then answers requests until its
# request pipe closes. Each request holds a module source and a test source;
# the answer lists the outcome of every test_* function. Everything a test may
# change in the interpreter is put back after each run, so one run cannot
# leak into the next.
import builtins
import gc
import io
import os
import random
import resource
import select
import signal
import sys
import types

CFG = eval(sys.argv[1], {"__builtins__": {}}, {"true": True, "false": False, "null": None})
REQ_FD, RESP_FD = 3, 4


def _libc():
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)

    def call(name, *args):
        r = getattr(libc, name)(*args)
        if r != 0:
            e = ctypes.get_errno()
            raise OSError(e, "%s%r: %s" % (name, args, os.strerror(e)))

    return libc, call


MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 32, 4096, 16384, 1 << 18
MS_NOATIME, MS_NODIRATIME, MS_RELATIME = 1024, 2048, 1 << 21
MNT_DETACH = 2
PIVOT_ROOT = {"x86_64": 155, "aarch64": 41, "riscv64": 41, "ppc64le": 203, "s390x": 217}


def _locked_flags(path):
    # A bind mount made inside a user namespace may not clear flags that the
    # parent mount has, so the read-only remount has to carry them along.
    f = os.statvfs(path).f_flag
    out = 0
    for st, ms in ((2, MS_NOSUID), (4, MS_NODEV), (8, MS_NOEXEC), (1024, MS_NOATIME),
                   (2048, MS_NODIRATIME), (4096, MS_RELATIME)):
        if f & st:
            out |= ms
    return out


def confine_namespaces():
    libc, call = _libc()
    call("mount", None, b"/", None, MS_REC | MS_PRIVATE, None)
    root = "/mnt" if os.path.isdir("/mnt") else "/tmp"
    call("mount", b"tmpfs", root.encode(), b"tmpfs", MS_NOSUID | MS_NODEV, b"size=1m,mode=755")
    for d in CFG["binds"]:
        src = "/" + d
        dst = root + "/" + d
        if os.path.islink(src):
            os.symlink(os.readlink(src), dst)
            continue
        if not os.path.isdir(src):
            continue
        os.makedirs(dst)
        call("mount", src.encode(), dst.encode(), None, MS_BIND | MS_REC, None)
        flags = MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV | _locked_flags(src)
        call("mount", None, dst.encode(), None, flags, None)
    os.mkdir(root + "/tmp")
    opts = "size=%dm,mode=1777" % CFG["scratch_mb"]
    call("mount", b"tmpfs", (root + "/tmp").encode(), b"tmpfs", MS_NOSUID | MS_NODEV, opts.encode())
    os.mkdir(root + "/dev")
    open(root + "/dev/null", "w").close()
    call("mount", b"/dev/null", (root + "/dev/null").encode(), None, MS_BIND, None)
    os.mkdir(root + "/.old")
    nr = PIVOT_ROOT.get(os.uname().machine)
    if nr is None:
        raise OSError("pivot_root: unknown machine %s" % os.uname().machine)
    r = libc.syscall(nr, root.encode(), (root + "/.old").encode())
    if r != 0:
        raise OSError("pivot_root failed")
    os.chdir("/")
    call("umount2", b"/.old", MNT_DETACH)
    os.rmdir("/.old")
    call("mount", None, b"/", None, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV, None)
    libc.sethostname(b"sandbox", 7)
    return libc


def confine_common(libc):
    os.chdir("/tmp" if CFG["mode"] == "namespaces" else CFG["scratch"])
    lim = CFG["limits"]
    for name, val in (("RLIMIT_AS", lim["as"]), ("RLIMIT_FSIZE", lim["fsize"]),
                      ("RLIMIT_NOFILE", lim["nofile"]), ("RLIMIT_CPU", lim["cpu"]),
                      ("RLIMIT_CORE", 0), ("RLIMIT_NPROC", lim["nproc"])):
        if val >= 0:
            resource.setrlimit(getattr(resource, name), (val, val))
    if CFG.get("uid") is not None:
        os.setgid(CFG["gid"])
        os.setuid(CFG["uid"])
    elif os.getuid() == 0 and CFG["mode"] == "namespaces":
        # No second uid could be mapped: stay uid 0 of the namespace but drop
        # every capability so that uid 0 means nothing.
        import ctypes

        hdr = (ctypes.c_uint32 * 2)(0x20080522, 0)
        data = (ctypes.c_uint32 * 6)()
        if libc.capset(hdr, data) != 0:
            raise OSError("capset failed")
    PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_SET_NO_NEW_PRIVS = 1, 4, 38
    libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    # Not dumpable: a test process of the same uid cannot ptrace this worker.
    libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    # A test may signal the worker; SIGINT is the one Python would act on.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Changing credentials clears the parent-death signal: set it again so the
    # worker dies with the Go process that owns it.
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() == 1 and CFG["mode"] != "namespaces":
        os._exit(3)


def read_exact(n):
    buf = b""
    while len(buf) < n:
        chunk = os.read(REQ_FD, n - len(buf))
        if not chunk:
            return None
        buf += chunk
    return buf


def pack(fields):
    # Every field is a length-prefixed UTF-8 string; the frame is prefixed by its length.
    parts = []
    for f in fields:
        b = f.encode("utf-8", "replace")
        parts.append(len(b).to_bytes(4, "big"))
        parts.append(b)
    body = b"".join(parts)
    return len(body).to_bytes(4, "big") + body


def send(fields):
    data = pack(fields)
    while data:
        n = os.write(RESP_FD, data)
        data = data[n:]


def recv():
    head = read_exact(4)
    if head is None:
        return None
    body = read_exact(int.from_bytes(head, "big"))
    if body is None:
        return None
    fields, i = [], 0
    while i < len(body):
        n = int.from_bytes(body[i:i + 4], "big")
        fields.append(body[i + 4:i + 4 + n].decode("utf-8"))
        i += 4 + n
    return fields


try:
    if CFG["mode"] == "namespaces":
        _lib = confine_namespaces()
    else:
        _lib = _libc()[0]
    confine_common(_lib)
    del _lib
except BaseException as e:  # report why confinement failed, then stop
    send(["error", "%s: %s" % (type(e).__name__, e)])
    sys.exit(1)


class Capped:
    """A text stream that keeps the first `cap` characters and drops the rest."""

    def __init__(self, cap):
        self.cap, self.parts, self.size, self.truncated = cap, [], 0, False

    def write(self, s):
        if not isinstance(s, str):
            raise TypeError("write() argument must be str")
        room = self.cap - self.size
        if room > 0:
            part = s[:room]
            self.parts.append(part)
            self.size += len(part)
        if len(s) > room:
            self.truncated = True
        return len(s)

    def flush(self):
        pass

    def isatty(self):
        return False

    def value(self):
        return "".join(self.parts)


_IS_CHILD = [False]
_FORKING_FRESH = [False]


def _after_fork_in_child():
    # A forked child must never speak the protocol: close its copies of the
    # pipes. A child forked by a test must also exit when the test returns; a
    # fresh-run child (see fresh) instead runs a whole request.
    if _FORKING_FRESH[0]:
        _FORKING_FRESH[0] = False
    else:
        _IS_CHILD[0] = True
    for fd in (REQ_FD, RESP_FD):
        try:
            os.close(fd)
        except OSError:
            pass


os.register_at_fork(after_in_child=_after_fork_in_child)

_MSG_CAP = 400
_CODE = {}


def compiled(src, filename):
    key = (filename, src)
    code = _CODE.get(key)
    if code is None:
        if len(_CODE) > 512:
            _CODE.clear()
        code = compile(src, filename, "exec", dont_inherit=True)
        _CODE[key] = code
    return code


def describe(e, filename):
    try:
        msg = "%s: %s" % (type(e).__name__, e)
    except BaseException:
        msg = type(e).__name__
    if isinstance(e, SyntaxError):
        msg = "SyntaxError: %s (line %s)" % (e.msg, e.lineno)
    else:
        tb, line = e.__traceback__, None
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == filename:
                line = tb.tb_lineno
            tb = tb.tb_next
        if line is not None:
            msg += " [%s line %d]" % (filename, line)
    if len(msg) > _MSG_CAP:
        msg = msg[:_MSG_CAP] + "..."
    return msg


# Snapshot of everything a run may patch. Taken after confinement and before
# any untrusted code, so it is the pristine state.
_B = dict(builtins.__dict__)
_MODS = dict(sys.modules)
_DICTS = [(m.__dict__, dict(m.__dict__)) for k, m in _MODS.items()
          if k != "__main__" and hasattr(m, "__dict__")]
_LISTS = [(l, list(l)) for l in (sys.path, sys.meta_path, sys.path_hooks)]
_ENV = dict(os.environ)
_REC = sys.getrecursionlimit()
_CWD = os.getcwd()
_OUT = (sys.stdout, sys.stderr, sys.stdin)


def restore():
    sys.settrace(None)
    sys.setprofile(None)
    sys.setrecursionlimit(_REC)
    bd = builtins.__dict__
    bd.clear()
    bd.update(_B)
    for k in list(sys.modules):
        if k not in _MODS:
            del sys.modules[k]
    sys.modules.update(_MODS)
    for d, snap in _DICTS:
        d.clear()
        d.update(snap)
    for l, snap in _LISTS:
        l[:] = snap
    if os.environ != _ENV:
        os.environ.clear()
        os.environ.update(_ENV)
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.alarm(0)
    gc.enable()
    try:
        os.chdir(_CWD)
    except OSError:
        pass
    sys.stdout, sys.stderr, sys.stdin = _OUT


def wipe_scratch():
    for name in os.listdir(_CWD):
        p = os.path.join(_CWD, name)
        try:
            if os.path.isdir(p) and not os.path.islink(p):
                import shutil

                shutil.rmtree(p, ignore_errors=True)
            else:
                os.unlink(p)
        except OSError:
            pass


def taint_reason():
    """Says why this worker can no longer be trusted, or returns ''."""
    if len(sys._current_frames()) > 1:
        return "a test left a thread running"
    live = 0
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            break
        if pid == 0:
            live += 1
            break
    if live:
        return "a test left child processes running"
    return ""


def run(req):
    name = req["module"]
    filename = name + ".py"
    out = Capped(req["output_cap"])
    resp = {"status": "ok", "error": "", "tests": []}
    random.seed(0)
    sys.stdout = sys.stderr = out
    sys.stdin = io.StringIO("")
    try:
        mod = types.ModuleType(name)
        mod.__file__ = filename
        sys.modules[name] = mod
        try:
            exec(compiled(req["source"], filename), mod.__dict__)
        except BaseException as e:
            resp["status"], resp["error"] = "module_error", describe(e, filename)
        tests = req.get("tests")
        if resp["status"] == "ok" and tests is not None:
            tfile = req.get("tests_file") or "test.py"
            ns = {"__name__": tfile[:-3], "__file__": tfile}
            try:
                exec(compiled(tests, tfile), ns)
            except BaseException as e:
                resp["status"], resp["error"] = "tests_error", describe(e, tfile)
            else:
                for key, fn in list(ns.items()):
                    if not key.startswith("test") or not isinstance(fn, types.FunctionType):
                        continue
                    try:
                        fn()
                        resp["tests"].append([key, True, ""])
                    except BaseException as e:
                        resp["tests"].append([key, False, describe(e, filename)])
                    if _IS_CHILD[0]:
                        os._exit(0)
    except BaseException as e:  # anything that escaped the guarded blocks
        resp["status"], resp["error"] = "worker_error", describe(e, filename)
    if _IS_CHILD[0]:
        os._exit(0)
    resp["output"] = out.value()
    resp["truncated"] = out.truncated
    return resp


def check(req):
    try:
        compile(req["source"], req["module"] + ".py", "exec", dont_inherit=True)
        return {"status": "ok", "error": ""}
    except SyntaxError as e:
        return {"status": "syntax_error", "error": "%s (line %s)" % (e.msg, e.lineno), "line": e.lineno or 0}
    except (ValueError, OverflowError, MemoryError, RecursionError) as e:
        return {"status": "syntax_error", "error": "%s: %s" % (type(e).__name__, e), "line": 0}


def response_fields(resp, taint):
    out = [resp["status"], resp["error"], resp.get("output", ""),
           "1" if resp.get("truncated") else "0", taint]
    for name, ok, msg in resp.get("tests", ()):
        out += [name, "1" if ok else "0", msg]
    return out


def fresh(req, timeout):
    """Runs one request in a child forked from this pristine interpreter.

    The child is a new process that starts from a state no test has touched;
    it never sees the protocol pipes (it answers through a private pipe), and
    everything it leaves behind is killed before this worker reads the next
    request."""
    r, w = os.pipe()
    _FORKING_FRESH[0] = True
    # Keep the collector away from the inherited heap: every object it visited
    # would be copied into the child page by page.
    gc.freeze()
    try:
        pid = os.fork()
    except OSError as e:
        _FORKING_FRESH[0] = False
        os.close(r)
        os.close(w)
        return pack(["crashed", "fork failed: %s" % e, "", "0", ""])
    if pid == 0:
        os.close(r)
        if CFG["mode"] != "namespaces":
            os.setpgid(0, 0)
        try:
            data = pack(response_fields(run(req), ""))
            while data:
                data = data[os.write(w, data):]
        finally:
            os._exit(0)
    _FORKING_FRESH[0] = False
    os.close(w)
    chunks, size, deadline = [], 0, _now() + timeout
    status = ""
    while True:
        left = deadline - _now()
        if left <= 0:
            status = "timeout"
            break
        ready, _, _ = select.select([r], [], [], left)
        if not ready:
            continue
        chunk = os.read(r, 1 << 16)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
        if size > (64 << 20):
            status = "crashed"
            break
        # Stop at the end of the frame, not at end of file: processes the child
        # started may hold the pipe open.
        if size >= 4:
            head = chunks[0] if len(chunks[0]) >= 4 else b"".join(chunks)
            if size >= 4 + int.from_bytes(head[:4], "big"):
                break
    os.close(r)
    # Kill the child and anything it started. As PID 1 of its namespace, or as
    # the only process of its own uid, this worker may signal every other
    # process it could reach at once; otherwise only the child's group.
    try:
        if CFG["kill_all"]:
            os.kill(-1, signal.SIGKILL)
        else:
            os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass
    while True:
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            break
    data = b"".join(chunks)
    if status == "timeout":
        return pack(["timeout", "timed out after %.3gs" % timeout, "", "0", ""])
    if status or len(data) < 4 or int.from_bytes(data[:4], "big") != len(data) - 4:
        return pack(["crashed", "the fresh process died during the run", "", "0", ""])
    return data


def _now():
    return os.times().elapsed


def serve():
    send(["ready", ""])
    while True:
        fields = recv()
        if fields is None:
            return
        op, module, source, tests, tests_file, cap, timeout = fields
        req = {"module": module, "source": source, "tests": tests if op != "check" else None,
               "tests_file": tests_file, "output_cap": int(cap)}
        if op == "fresh":
            data = fresh(req, float(timeout))
            while data:
                data = data[os.write(RESP_FD, data):]
            continue
        resp = check(req) if op == "check" else run(req)
        restore()
        if os.listdir(_CWD):
            wipe_scratch()
        send(response_fields(resp, taint_reason()))


# The worker's own globals are restored too, so a test cannot replace the
# functions that report its result for the next run.
_DICTS.append((globals(), dict(globals())))
serve()
