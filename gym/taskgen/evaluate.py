# Computes, for the task generator, the correct template's result on every input and whether
# each candidate bug passes on each input. Trusted code only (the templates and their
# mutations); it runs outside the sandbox with a time limit per call.
import json
import resource
import signal
import sys

resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


class Timeout(Exception):
    pass


def on_alarm(signum, frame):
    raise Timeout()


signal.signal(signal.SIGALRM, on_alarm)


def results(source, entry, args):
    ns = {"__name__": "candidate"}
    exec(compile(source, "candidate.py", "exec"), ns)
    fn = ns[entry]
    out = []
    for a in args:
        signal.setitimer(signal.ITIMER_REAL, 0.2)
        try:
            out.append(("ok", eval("fn(" + a + ")", {"fn": fn})))
        except Timeout:
            out.append(("timeout", None))
            break
        except Exception as e:
            out.append(("error", type(e).__name__))
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    return out


job = json.load(sys.stdin)
wants = results(job["source"], job["entry"], job["args"])
mutants = []
for src in job["mutants"]:
    try:
        got = results(src, job["entry"], job["args"])
    except Exception:
        mutants.append({"bad": True, "pass": []})
        continue
    bad = len(got) < len(wants) or any(s == "timeout" for s, _ in got)
    passes = [ws == "ok" and gs == "ok" and gv == wv
              for (ws, wv), (gs, gv) in zip(wants, got)]
    mutants.append({"bad": bad, "pass": passes})
print(json.dumps({"wants": [repr(v) if s == "ok" else None for s, v in wants], "mutants": mutants}))
