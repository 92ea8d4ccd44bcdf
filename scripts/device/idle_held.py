#!/usr/bin/env python3
"""EXTERNAL times as a user's shell sees them, in two device states (issue 17, item 1).

The launcher is this Python process: it never loads libcuda (the held state's context lives in a separate
helper process, `--hold`), so no context of its own changes what the child pays. Each case is run
--runs times with the GPU idle (no other process holds a context), then --runs times while the helper
holds a CUDA context (held), timed with os.posix_spawn .. waitpid as joseki's own EXTERNAL scope does.
The helper reports the device facts NVML gives (persistence mode, other compute processes) when it can.

Usage:
  idle_held.py --joseki J --facts FACTS.json --out RECORDS.json [--runs 5] CASE...
      CASE is NAME=ARGV (ARGV split on spaces; '<FILE' at the end feeds FILE on stdin).
      FACTS.json: any joseki records file of this session (its first record's device/host/build are copied).
  idle_held.py --hold          (internal) create a CUDA context, print 'ready', wait for stdin to close.
Exit 0 ok; 1 a run failed (non-zero exit of a child) or the held context could not be created; 2 bad usage.
"""
import argparse
import ctypes
import datetime
import json
import os
import statistics
import subprocess
import sys
import time


def hold():
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
    except OSError as e:
        print(f"error: libcuda.so.1: {e}", flush=True)
        return 1
    ctx = ctypes.c_void_p()
    dev = ctypes.c_int()
    for name, call in (("cuInit", lambda: cuda.cuInit(0)), ("cuDeviceGet", lambda: cuda.cuDeviceGet(ctypes.byref(dev), 0)),
                       ("cuDevicePrimaryCtxRetain", lambda: cuda.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev))):
        rc = call()
        if rc != 0:
            print(f"error: {name} returned {rc}", flush=True)
            return 1
    cuda.cuCtxSetCurrent(ctx)
    print("ready", flush=True)
    sys.stdin.read()  # until the launcher closes our stdin
    return 0


def nvml_facts():
    """Persistence mode and compute processes on GPU 0, from NVML (None where unavailable)."""
    try:
        nv = ctypes.CDLL("libnvidia-ml.so.1")
    except OSError:
        return {"nvml": "libnvidia-ml.so.1 not found"}
    if nv.nvmlInit_v2() != 0:
        return {"nvml": "nvmlInit failed"}
    h = ctypes.c_void_p()
    out = {}
    if nv.nvmlDeviceGetHandleByIndex_v2(0, ctypes.byref(h)) == 0:
        mode = ctypes.c_uint()
        if nv.nvmlDeviceGetPersistenceMode(h, ctypes.byref(mode)) == 0:
            out["persistence_mode"] = bool(mode.value)
        count = ctypes.c_uint(0)
        rc = nv.nvmlDeviceGetComputeRunningProcesses_v3(h, ctypes.byref(count), None)
        out["compute_processes"] = int(count.value) if rc in (0, 7) else None  # 7: insufficient size = some exist
    nv.nvmlShutdown()
    return out


def spawn_time(argv, stdin_path):
    fd = os.open(stdin_path, os.O_RDONLY) if stdin_path else os.open(os.devnull, os.O_RDONLY)
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        t0 = time.perf_counter()
        pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=[(os.POSIX_SPAWN_DUP2, fd, 0), (os.POSIX_SPAWN_DUP2, null, 1)])
        _, status = os.waitpid(pid, 0)
        t1 = time.perf_counter()
    finally:
        os.close(fd)
        os.close(null)
    return t1 - t0, os.waitstatus_to_exitcode(status)


def summary(xs):
    xs = sorted(xs)
    med = statistics.median(xs)
    mean = statistics.fmean(xs)
    sd = statistics.stdev(xs) if len(xs) > 1 else 0.0
    mad = statistics.median(abs(x - med) for x in xs)
    return {"n": len(xs), "min": xs[0], "median": med, "max": xs[-1], "mean": mean, "stdev": sd,
            "rel_stdev": sd / mean if mean else 0.0, "mad": mad, "rel_mad": mad / med if med else 0.0}


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--hold":
        return hold()
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--joseki", required=True)
    ap.add_argument("--facts", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--states", default="idle,held", help="comma list of idle, held (default both)")
    ap.add_argument("cases", nargs="+")
    a = ap.parse_args()
    if a.runs < 1:
        print(f"error: --runs {a.runs}: want >= 1", file=sys.stderr)
        return 2
    cases = []
    for c in a.cases:
        if "=" not in c:
            print(f"error: case {c!r}: want NAME=ARGV", file=sys.stderr)
            return 2
        name, cmd = c.split("=", 1)
        argv = cmd.split()
        stdin = argv.pop()[1:] if argv and argv[-1].startswith("<") else None
        argv = [a.joseki if x == "J" else x for x in argv]
        cases.append((name, argv, stdin))
    try:
        with open(a.facts) as f:
            first = json.load(f)["records"][0]
    except (OSError, ValueError, KeyError, IndexError) as e:
        print(f"error: --facts {a.facts}: {e}", file=sys.stderr)
        return 2
    times = {}
    facts = {}
    failed = False
    states = a.states.split(",")
    if not states or any(st not in ("idle", "held") for st in states):
        print(f"error: --states {a.states}: want idle and/or held", file=sys.stderr)
        return 2
    for state in states:
        holder = None
        if state == "held":
            holder = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--hold"], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, text=True)
            line = holder.stdout.readline().strip()
            if line != "ready":
                print(f"error: the context holder said {line!r}", file=sys.stderr)
                return 1
        facts[state] = nvml_facts()
        for name, argv, stdin in cases:
            for _ in range(a.runs):
                t, rc = spawn_time(argv, stdin)
                if rc != 0:
                    print(f"error: {name} ({state}) exited {rc}", file=sys.stderr)
                    failed = True
                times.setdefault((name, state), []).append(t)
        if holder:
            holder.stdin.close()
            holder.wait(timeout=30)
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    recs = []
    for (name, state), xs in times.items():
        argv = next(c[1] for c in cases if c[0] == name)
        recs.append({"schema": "joseki.record/1", "experiment": "external.device_state", "variant": name, "rung": -1,
                     "technique": "EXTERNAL from a launcher that never touched CUDA (posix_spawn .. waitpid)",
                     "backend": "process", "axes": {"device_state": state}, "scope": "EXTERNAL", "mode": "",
                     "unit": "s", "samples": xs, "summary": summary(xs), "stop_reason": "single", "warmup_runs": 0,
                     "throughput": None, "validation": "not-checked", "skipped": None,
                     "extra": {"command": " ".join(os.path.basename(x) if i == 0 else x for i, x in enumerate(argv)),
                               "launcher": "scripts/device/idle_held.py", "nvml": facts.get(state, {})},
                     "device": first.get("device"), "host": first.get("host"), "build": first.get("build"),
                     "timestamp": now})
    with open(a.out, "w") as f:
        json.dump({"schema": "joseki.records/1", "command": " ".join(sys.argv), "created": now, "records": recs}, f, indent=1)
    print("| case | idle median (min..max) | held median (min..max) | idle - held |")
    print("|---|---|---|---|")
    for name, _, _ in cases:
        if (name, "idle") not in times or (name, "held") not in times:
            continue
        i, h = summary(times[(name, "idle")]), summary(times[(name, "held")])
        print(f"| {name} | {i['median'] * 1e3:.1f} ms ({i['min'] * 1e3:.1f}..{i['max'] * 1e3:.1f}) | "
              f"{h['median'] * 1e3:.1f} ms ({h['min'] * 1e3:.1f}..{h['max'] * 1e3:.1f}) | {(i['median'] - h['median']) * 1e3:+.1f} ms |")
    print(f"NVML: idle {facts.get('idle')}, held {facts.get('held')}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
