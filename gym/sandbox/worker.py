# The sandbox worker: a pristine parent (a zygote) that never runs the code under test. It is
# started by the Go sandbox with two pipes (fd 3: requests, fd 4: responses), first confines
# itself (mount namespace, pivot_root, rlimits, unprivileged uid), then answers requests until
# its request pipe closes.
#
# A run forks a child from this process. The child loads the module, calls its functions with the
# arguments the judge sent and answers with each result as plain data (its repr, checked to be
# made of builtin types only), through a private pipe. It never sees the expected values, so
# nothing it does, in memory or otherwise, can make a wrong answer pass: the Go judge compares.
# The child and everything it started are killed after the run, so no run can reach the next.
import ast
import gc
import io
import os
import random
import resource
import select
import shutil
import signal
import sys
import time
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


_BUF = bytearray(1 << 16)


def recv_frame():
    """Reads one request frame into a buffer this process reuses and wipes, without copying it
    anywhere else, and returns a view of it (None at end of input)."""
    global _BUF
    head = read_exact(4)
    if head is None:
        return None
    n = int.from_bytes(head, "big")
    if n > len(_BUF):
        _BUF = bytearray(n)
    view = memoryview(_BUF)[:n]
    got = 0
    while got < n:
        k = os.readv(REQ_FD, [view[got:]])
        if k == 0:
            return None
        got += k
    return view


def field(frame, k):
    """Decodes field k of a frame."""
    i = 0
    for _ in range(k):
        i += 4 + int.from_bytes(frame[i:i + 4], "big")
    n = int.from_bytes(frame[i:i + 4], "big")
    return bytes(frame[i + 4:i + 4 + n]).decode("utf-8")


def fields_of(frame):
    """Decodes every field of a frame."""
    data, fields, i = bytes(frame), [], 0
    while i < len(data):
        n = int.from_bytes(data[i:i + 4], "big")
        fields.append(data[i + 4:i + 4 + n].decode("utf-8"))
        i += 4 + n
    return fields


try:
    if CFG["mode"] == "namespaces":
        _lib = confine_namespaces()
    else:
        _lib = _libc()[0]
    confine_common(_lib)
    _LIBC = _lib
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


_MSG_CAP = 400
# The largest result sent back, in characters of its repr.
_VALUE_CAP = 1 << 16


def type_name(x):
    try:
        n = type.__dict__["__name__"].__get__(type(x), type)
        return n if type(n) is str else "object"
    except BaseException:
        return "object"


def describe(e, filename):
    try:
        msg = "%s: %s" % (type_name(e), e)
    except BaseException:
        msg = type_name(e)
    if isinstance(e, SyntaxError):
        try:
            msg = "SyntaxError: %s (line %s)" % (e.msg, e.lineno)
        except BaseException:
            msg = "SyntaxError"
    else:
        try:
            tb, line = e.__traceback__, None
            while tb is not None:
                if tb.tb_frame.f_code.co_filename == filename:
                    line = tb.tb_lineno
                tb = tb.tb_next
            if line is not None:
                msg += " [%s line %d]" % (filename, line)
        except BaseException:
            pass
    if type(msg) is not str:
        msg = "error"
    if len(msg) > _MSG_CAP:
        msg = msg[:_MSG_CAP] + "..."
    return msg


class NotPlain(Exception):
    pass


def size_of(v, depth):
    """Checks that v is plain data (exact builtin types, nothing subclassed) and returns about
    how long its repr is. It calls no method of an object the module made."""
    t = type(v)
    if v is None:
        return 4
    if depth > 100:
        raise NotPlain("nested more than 100 deep")
    if t is bool or t is float:
        return 24
    if t is int:
        return int.bit_length(v) // 3 + 2
    if t is str or t is bytes:
        return 4 * len(v) + 3
    if t is list or t is tuple or t is set or t is frozenset:
        n = 12
        for x in v:
            n += size_of(x, depth + 1) + 2
            if n > _VALUE_CAP:
                raise NotPlain("a value of more than %d characters" % _VALUE_CAP)
        return n
    if t is dict:
        n = 2
        for k, x in dict.items(v):
            n += size_of(k, depth + 1) + size_of(x, depth + 1) + 4
            if n > _VALUE_CAP:
                raise NotPlain("a value of more than %d characters" % _VALUE_CAP)
        return n
    raise NotPlain("an object of type %s" % type_name(v))


def encode(v):
    """Returns ("value", repr) for plain data and ("opaque", what) for anything else."""
    try:
        if size_of(v, 0) > _VALUE_CAP:
            raise NotPlain("a value of more than %d characters" % _VALUE_CAP)
        text = repr(v)
    except NotPlain as e:
        return "opaque", str(e.args[0])
    except (RecursionError, ValueError, MemoryError) as e:
        return "opaque", "a value too large to send (%s)" % type_name(e)
    return "value", text


def run_file(module, code, calls, cap):
    """Loads the module afresh and makes one test file's calls; returns the answer's fields."""
    filename = module + ".py"
    out = Capped(cap)
    sys.stdout = sys.stderr = out
    sys.stdin = io.StringIO("")
    random.seed(0)
    status, error = "ok", ""
    mod = types.ModuleType(module)
    mod.__file__ = filename
    sys.modules[module] = mod
    try:
        if isinstance(code, BaseException):
            raise code
        exec(code, mod.__dict__)
    except BaseException as e:
        status, error = "module_error", describe(e, filename)
    results = []
    if status == "ok":
        ns = mod.__dict__
        for fn, args in calls:
            if fn not in ns:
                results.append(("missing", "ImportError: cannot import name %r from %r" % (fn, module)))
                continue
            try:
                results.append(encode(ns[fn](*args)))
            except BaseException as e:
                results.append(("raised", describe(e, filename)))
    fields = [status, error, out.value(), "1" if out.truncated else "0", str(len(results))]
    for kind, text in results:
        fields += [kind, text]
    return fields


def child(w, fields, start, cap):
    """The forked child: reads the request (module, source, then per test file its number of
    calls and each call's function and arguments), runs the files from start on, in order, and
    answers after each one."""
    module, source = fields[4], fields[5]
    files, i = [], 6
    while i < len(fields):
        n = int(fields[i])
        files.append([(fields[i + 1 + 2 * k], fields[i + 2 + 2 * k]) for k in range(n)])
        i += 1 + 2 * n
    parsed = []
    # Arguments are parsed before any module code runs.
    for calls in files[start:]:
        out = []
        for fn, text in calls:
            try:
                out.append((fn, ast.literal_eval("[" + text + "]")))
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                out = "cannot read the arguments of %s(%s)" % (fn, text[:80])
                break
        parsed.append(out)
    try:
        code = compile(source, module + ".py", "exec", dont_inherit=True)
    except BaseException as e:
        code = e
    for calls in parsed:
        if isinstance(calls, str):
            data = failed("tests_error", calls)
        else:
            data = pack(run_file(module, code, calls, cap))
        while data:
            data = data[os.write(w, data):]


def check(module, source):
    # Compiling runs nothing: the zygote may do it itself.
    try:
        compile(source, module + ".py", "exec", dont_inherit=True)
        return ["ok", "", "", "0", "0"]
    except SyntaxError as e:
        return ["syntax_error", "%s (line %s)" % (e.msg, e.lineno), "", "0", "0"]
    except (ValueError, OverflowError, MemoryError, RecursionError) as e:
        return ["syntax_error", "%s: %s" % (type(e).__name__, e), "", "0", "0"]


def failed(status, error):
    return pack([status, error, "", "0", "0"])


def run(frame, nfiles, cap, timeout, backstop):
    """Runs a request's test files in a child forked from this pristine process and returns one
    answer per file.

    The child never sees the protocol pipes (it answers through a private pipe), and everything
    it leaves behind is killed before this worker reads the next request. Each file has its own
    time limit; when one times out or kills its process, the files after it get a new one. A file
    stopped by the wall-clock backstop within its CPU time (it slept, blocked, or the machine was
    too busy to run it) runs once more in a new child before that answer counts."""
    answers, rerun = [], set()
    while len(answers) < nfiles:
        got, stalled = run_child(frame, len(answers), nfiles, cap, timeout, backstop)
        if stalled and len(answers) + len(got) not in rerun:
            rerun.add(len(answers) + len(got))
            got.pop()
        answers += got
    return answers


# The start of a backstop timeout's error: the Go side counts these runs and never memoizes them.
BACKSTOP = "stopped by the wall-clock backstop"


def run_child(frame, start, nfiles, cap, timeout, backstop):
    """Forks one child for the files from start on and returns the answers it gave, ending with
    the file it failed on, if it failed, and whether the backstop stopped that one.

    A file times out when its run has used more than timeout seconds of CPU time and as many of
    wall-clock time: CPU time does not grow when the machine is busy, so the verdict does not
    depend on load, and on an idle machine, where a run gets a whole core, it is the wall-clock
    limit's. backstop bounds the wall-clock time of a run that uses no CPU."""
    r, w = os.pipe()
    try:
        pid = os.fork()
    except OSError as e:
        os.close(r)
        os.close(w)
        return [failed("crashed", "fork failed: %s" % e)] * (nfiles - start), False
    if pid == 0:
        try:
            os.close(r)
            os.close(REQ_FD)
            os.close(RESP_FD)
            if CFG["mode"] == "namespaces":
                # An IPC namespace of the run's own (a user namespace gives the right to make
                # it): System V objects it creates die with it instead of waiting for the next
                # run, which shares this worker's namespaces.
                if _LIBC.unshare(CLONE_NEWUSER | CLONE_NEWIPC) != 0:
                    os._exit(1)
            else:
                os.setpgid(0, 0)
            # The collector would touch every object of the inherited heap, and each page it
            # touched would be copied: runs are short, and RLIMIT_AS bounds what they allocate.
            gc.disable()
            child(w, fields_of(frame), start, cap)
        finally:
            os._exit(0)
    os.close(w)
    clock = ((~pid) << 3) | 2  # the child's CPU clock: Linux's CPUCLOCK_SCHED of process pid
    answers, buf, stalled = [], b"", False
    began, cpu0 = _now(), _cpu(clock, 0.0)
    cpu = cpu0
    while len(answers) < nfiles - start:
        wall = _now() - began
        cpu = _cpu(clock, cpu)
        if cpu - cpu0 > timeout and wall > timeout:
            answers.append(failed("timeout", "timed out after %.3gs" % timeout))
            break
        if wall > backstop:
            answers.append(failed("timeout", "%s after %.3gs, having used %.3gs of CPU time of its %.3gs" % (
                BACKSTOP, wall, cpu - cpu0, timeout)))
            stalled = True
            break
        # One thread's CPU time grows no faster than the clock: the limit cannot be reached
        # before both have had the time they lack.
        wait = max(timeout - wall, timeout - (cpu - cpu0), 0.002)
        ready, _, _ = select.select([r], [], [], min(wait, backstop - wall + 0.001))
        if not ready:
            continue
        chunk = os.read(r, 1 << 16)
        if not chunk:
            answers.append(failed("crashed", "the process running the tests died during the run"))
            break
        buf += chunk
        if len(buf) > (64 << 20):
            answers.append(failed("crashed", "the process running the tests sent too much"))
            break
        # Split complete frames off; stop at the last one, not at end of file: processes the
        # child started may hold the pipe open.
        while len(buf) >= 4 and len(buf) >= 4 + int.from_bytes(buf[:4], "big"):
            n = 4 + int.from_bytes(buf[:4], "big")
            answers.append(buf[:n])
            buf = buf[n:]
            began, cpu0 = _now(), _cpu(clock, cpu)
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
    return answers, stalled


CLONE_NEWUSER, CLONE_NEWIPC = 0x10000000, 0x08000000


def _now():
    return time.monotonic()


def _cpu(clock, last):
    """The CPU time on clock; last once the process is gone and its clock with it."""
    try:
        return time.clock_gettime(clock)
    except OSError:
        return last


def wipe_scratch():
    """Empties the scratch folder a run may have written, and says why not if it cannot."""
    cwd = os.getcwd()

    def writable(func, path, exc):
        # A run may have taken the write permission off its own folders: give it back.
        try:
            os.chmod(os.path.dirname(path), 0o700)
            func(path)
        except OSError:
            pass

    for name in os.listdir(cwd):
        p = os.path.join(cwd, name)
        try:
            if os.path.isdir(p) and not os.path.islink(p):
                os.chmod(p, 0o700)
                shutil.rmtree(p, onerror=writable)
            else:
                os.unlink(p)
        except OSError:
            pass
    if os.listdir(cwd):
        return "a run left files in the scratch folder that could not be removed"
    return ""


def serve():
    # Freeze what exists now, so that the children's collectors (were they enabled) and this
    # process's own leave these objects alone.
    gc.collect()
    gc.freeze()
    send(["ready", ""])
    while True:
        frame = recv_frame()
        if frame is None:
            return
        op = field(frame, 0)
        if op == "check":
            send(check(field(frame, 1), field(frame, 2)))
            continue
        # The limits field is "CPU seconds/backstop seconds".
        timeout, backstop = (float(x) for x in field(frame, 2).split("/"))
        cap, nfiles = int(field(frame, 1)), int(field(frame, 3))
        answers = run(frame, nfiles, int(cap), timeout, backstop)
        # The request may hold what later runs must not see (the arguments of hidden tests): only
        # the children of this run ever parsed it, and the buffer is wiped before the next one.
        frame[:] = bytes(len(frame))
        # Nothing a run wrote may reach the next one; a worker that cannot ensure it is replaced.
        answers.append(pack(["done", wipe_scratch()]))
        data = b"".join(answers)
        while data:
            data = data[os.write(RESP_FD, data):]
        # Nor may the answers (what the module returned) stay referenced into the next run.
        answers = data = None

serve()
