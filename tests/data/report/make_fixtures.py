#!/usr/bin/env python3
"""Writes the fixture record files of the report and compare tests (deterministic).

These are SYNTHETIC records, not measurements: every file says so in its `command`, the host
is "fixture-host" and the build commit "fixture". They exercise every plot and every rule of
`joseki report` and `joseki compare`; the figures are shaped like an H200 run but invented.
    python3 tests/data/report/make_fixtures.py        # rewrites the *.json next to this file
"""
import json
import math
import os
import random
import statistics

HERE = os.path.dirname(os.path.abspath(__file__))
COMMAND = "synthetic fixture for tests, not a measurement (tests/data/report/make_fixtures.py)"
H200 = {"present": True, "index": 0, "name": "NVIDIA H200", "compute_capability": "9.0", "sm_count": 132,
        "warp_size": 32, "l2_bytes": 62914560, "global_mem_bytes": 150754820096, "smem_per_sm": 233472,
        "smem_per_block_optin": 232448, "regs_per_sm": 65536, "max_threads_per_sm": 2048, "sm_clock_khz": 1980000,
        "mem_clock_khz": 3201000, "bus_width_bits": 6016, "driver_version": 13000, "runtime_version": 13000,
        "pci_bus_id": "0000:00:00.0", "clock_bw_Bps": 4814304000000.0, "datasheet_bw_Bps": 4.8e12,
        "datasheet_source": "vendor datasheet"}
HOST = {"hostname": "fixture-host", "cpu_model": "fixture CPU", "logical_cpus": 16, "os": "Linux fixture x86_64"}
BUILD = {"git_commit": "fixture", "git_dirty": False, "cxx_compiler": "GNU 12.2.0", "cuda_compiler": "nvcc 13.0",
         "build_type": "Release", "cxx_flags": "-O3", "cuda_flags": "-O3", "cuda_architectures": "90",
         "have_cuda": True}
DATASHEET = 4.8e12
STREAM_READ = 4.563e12


def summary(xs):
    med = statistics.median(xs)
    mad = statistics.median([abs(x - med) for x in xs])
    mean = statistics.fmean(xs)
    sd = statistics.stdev(xs) if len(xs) > 1 else 0.0
    return {"n": len(xs), "min": min(xs), "median": med, "max": max(xs), "mean": mean, "stdev": sd,
            "rel_stdev": sd / mean, "mad": mad, "rel_mad": mad / med}


def rec(rng, experiment, variant, median, noise=0.005, n=12, rung=-1, technique="", backend="cuda", axes=None,
        scope="GPU_COMPUTE", mode="cold", unit="s", bytes_=0, elements=0, extra=None, skipped=None, device=None):
    r = {"schema": "joseki.record/1", "experiment": experiment, "variant": variant, "rung": rung,
         "technique": technique, "backend": backend, "axes": axes or {}, "scope": scope, "mode": mode, "unit": unit,
         "samples": [], "summary": None, "stop_reason": "", "warmup_runs": 0, "throughput": None,
         "validation": "not-checked", "skipped": skipped, "extra": extra or {}, "device": device or H200,
         "host": HOST, "build": BUILD, "timestamp": "2026-11-29T22:30:00Z"}
    if skipped:
        return r
    xs = [median * (1 + rng.gauss(0, noise)) for _ in range(n)]
    r.update(samples=xs, summary=summary(xs), stop_reason="converged", warmup_runs=3,
             validation="exact" if rung >= 0 else "not-checked")
    if bytes_ and unit == "s":
        t = r["summary"]["median"]
        bps = bytes_ / t
        r["throughput"] = {"elements": float(elements or bytes_ / 4), "bytes": float(bytes_), "time_s": t,
                           "elements_per_s": (elements or bytes_ / 4) / t, "bytes_per_s": bps,
                           "datasheet_Bps": DATASHEET, "pct_datasheet": 100 * bps / DATASHEET,
                           "ceiling_name": "stream_read", "ceiling_Bps": STREAM_READ,
                           "pct_ceiling": 100 * bps / STREAM_READ}
    return r


REDUCE = [  # variant, rung, technique, backend, scope, seconds at 2^24 (invented), mode
    ("cub", 0, "CUB DeviceReduce::Sum", "cuda", "GPU_COMPUTE", 21.0e-6, "cold"),
    ("cpu_one_core", 0, "CPU, one core, auto-vectorised", "cpu", "CPU_COMPUTE", 9.1e-3, ""),
    ("cpu_all_cores", 0, "CPU, all cores", "cpu", "CPU_COMPUTE", 1.6e-3, ""),
    ("r01_atomic", 1, "one atomicAdd per element", "cuda", "GPU_COMPUTE", 60.0e-6, "cold"),
    ("r02_shared_tree", 2, "shared-memory tree", "cuda", "GPU_COMPUTE", 95.0e-6, "cold"),
    ("r03_coarsen", 3, "grid-stride coarsening + tree", "cuda", "GPU_COMPUTE", 24.0e-6, "cold"),
    ("r04_warp_shuffle", 4, "warp shuffle", "cuda", "GPU_COMPUTE", 19.5e-6, "cold"),
    ("r05_vector_loads", 5, "16-byte loads", "cuda", "GPU_COMPUTE", 17.2e-6, "cold"),
    ("r06_single_pass", 6, "one launch end to end", "cuda", "GPU_COMPUTE", 17.9e-6, "cold"),
]


def reduce_ladder(rng, n, slow=None, jitter=0.0, noise_of=None):
    out, prev, base = [], None, None
    scale = n / 2**24
    for variant, rung, tech, backend, scope, t, mode in REDUCE:
        t = t * scale * (1 + jitter * rng.uniform(-1, 1)) * (slow.get(variant, 1) if slow else 1)
        noise = (noise_of or {}).get(variant, 0.004 if backend == "cuda" else 0.02)
        r = rec(rng, "reduce", variant, t, noise=noise, rung=rung, technique=tech, backend=backend, axes={"n": n},
                scope=scope, mode=mode, bytes_=4 * n if backend == "cuda" else 0, elements=n,
                extra={"baseline": "cub"})
        m = r["summary"]["median"]
        if variant == "cub":
            base = m
        if rung >= 1:
            if prev:
                r["extra"]["x_previous"] = prev / m
            r["extra"]["x_baseline"] = base / m
            prev = m
        out.append(r)
    return out


def full(rng):
    out = []
    for variant, t, bytes_, tech in (("d2d_copy", 503e-6, 2**31, "cudaMemcpyAsync device-to-device, 1 GiB"),
                                     ("stream_read", 235e-6, 2**30, "16-byte loads, 1 GiB")):
        r = rec(rng, "device", variant, t, axes={"bytes": 2**30}, bytes_=bytes_, technique=tech)
        r["throughput"]["ceiling_name"], r["throughput"]["pct_ceiling"] = "", 0
        r["extra"] = {"value": bytes_ / r["summary"]["median"], "value_unit": "B/s"}
        out.append(r)
    r = rec(rng, "device", "launch_gpu_interval", 3.86e-6, noise=0.05, mode="hot", technique="empty kernels")
    r["extra"] = {"value": r["summary"]["median"], "value_unit": "s"}
    out.append(r)
    r = rec(rng, "device", "context_creation", 0.186, noise=0.03, n=5, scope="EXTERNAL", mode="",
            technique="child process: cudaFree(0)")
    r["extra"] = {"value": 0.1175, "value_unit": "s", "pre_main_s": 0.0012, "program_s": 0.1293, "post_main_s": 0.0559}
    out.append(r)

    out += reduce_ladder(rng, 2**24)
    out += [r for r in reduce_ladder(rng, 2**28) if r["variant"] in ("cub", "r03_coarsen", "r05_vector_loads")]
    out.append(rec(rng, "reduce", "r07_cluster", 0, rung=7, technique="thread block clusters", axes={"n": 2**24},
                   skipped="needs thread block clusters (compute capability 9.0); this GPU reports 8.0"))
    # r03's sweep: grid x items per thread, one combination skipped.
    best = (264, 16)
    for grid in (132, 264, 528, 1056):
        for items in (4, 8, 16, 32, 64):
            ex = {"sweep": "r03_grid_items"}
            if (grid, items) == (1056, 64):
                out.append(rec(rng, "reduce", "r03_coarsen", 0, rung=3, axes={"n": 2**24, "grid": grid, "items": items},
                               extra=ex, skipped="grid x block x items exceeds n: idle threads"))
                continue
            t = 17.5e-6 * (1 + 0.15 * abs(math.log2(grid / best[0])) + 0.08 * abs(math.log2(items / best[1])))
            if (grid, items) == best:
                ex.update(chosen=True, tie_rule="grid=264 items=16 fastest (17.50 us); ties within 2%: none; "
                                                "preference: fewer blocks -> grid=264 items=16")
            out.append(rec(rng, "reduce", "r03_coarsen", t, rung=3, axes={"n": 2**24, "grid": grid, "items": items},
                           bytes_=2**26, extra=ex))
    # A chunk x block sweep (the seed's g08) and a one-axis chunk sweep (g02).
    for block in (32, 64, 72, 96, 128, 256):
        for chunk in (1024, 2048, 4096, 8192, 16384, 32768, 65536):
            t = 0.21e-3 * (1 + 0.05 * abs(math.log2(chunk / 8192)) + 0.002 * abs(block - 72))
            ex = {"sweep": "g08_block_chunk"}
            if (block, chunk) == (72, 16384):
                ex.update(chosen=True, tie_rule="block=72 chunk=8192 fastest; ties within 2%: chunk=16384 (+0.9%); "
                                                "preference: larger chunk -> chunk=16384")
            out.append(rec(rng, "abc471g", "g08_geometry", t, rung=8, axes={"case": "max", "block": block,
                                                                          "chunk": chunk}, extra=ex))
    for chunk in (1024, 2048, 4096, 8192, 16384, 32768, 65536):
        ex = {"sweep": "g02_chunk"}
        if chunk == 8192:
            ex.update(chosen=True, tie_rule="chunk=8192 fastest; no ties within 2%")
        out.append(rec(rng, "abc471g", "g02_chunked", 2.1e-3 * (1 + 0.2 * abs(math.log2(chunk / 8192))), rung=2,
                       axes={"case": "max", "chunk": chunk}, extra=ex))
    for variant, rung, t in (("g01_lane_per_thread", 1, 38e-3), ("g02_chunked", 2, 2.1e-3), ("g05_bitsliced", 5, 0.9e-3),
                             ("g07_alignment_bank", 7, 0.25e-3), ("g09_gpu_generate", 9, 0.18e-3)):
        out.append(rec(rng, "abc471g", variant, t, rung=rung, axes={"case": "max"}, technique=variant[4:]))
    # The four scopes of the final rung, measured together.
    for scope, t in (("EXTERNAL", 0.1233), ("PROGRAM", 0.0864), ("GPU_PIPELINE", 6.9e-3), ("GPU_COMPUTE", 0.19e-3)):
        ex = {"scope_set": "abc471g-final"}
        if scope == "EXTERNAL":
            ex.update(pre_main_s=0.0013, post_main_s=0.0341)
        out.append(rec(rng, "abc471g", "g09_gpu_generate", t, n=5, noise=0.02, axes={"case": "max"}, scope=scope,
                       mode="", extra=ex))
    # Probes: caches (latency in cycles, bandwidth), coalescing, banks, barriers, start-up, verdicts.
    for e in range(14, 33):
        size = 2**e
        lat = 33 if size <= 192 * 1024 else 260 if size <= 50 * 2**20 else 620
        out.append(rec(rng, "probe.caches", "latency", lat, noise=0.01, unit="cycles", axes={"bytes": size},
                       mode="hot"))
        bw = 19e12 if size <= 192 * 1024 else 9.5e12 if size <= 50 * 2**20 else 4.5e12
        out.append(rec(rng, "probe.caches", "bandwidth", 2**30 / bw, axes={"bytes": size}, mode="hot", bytes_=2**30))
    for stride in (1, 2, 4, 8, 16, 32, 64, 128):
        out.append(rec(rng, "probe.coalescing", "stride_read", 235e-6 * min(stride, 8), axes={"stride": stride},
                       bytes_=2**30))
    for stride in range(1, 33):
        out.append(rec(rng, "probe.banks", "stride", math.gcd(stride, 32) * 1.0, noise=0.002, unit="cycles",
                       axes={"stride": stride}, mode="hot"))
    for block in (32, 64, 128, 256, 512, 1024):
        out.append(rec(rng, "probe.barriers", "syncthreads", 12e-9 * (1 + block / 256), unit="s",
                       axes={"block": block}, mode="hot"))
    for variant, pre, prog, post in (("PLAIN", 0.0004, 0.0002, 0.0001), ("CUDA_LINK", 0.0009, 0.0003, 0.0002),
                                     ("CUDA_TOUCH", 0.0011, 0.0122, 0.0021), ("CONTEXT", 0.0012, 0.1293, 0.0559)):
        out.append(rec(rng, "probe.startup", variant, pre + prog + post, n=5, noise=0.03, backend="process",
                       scope="EXTERNAL", mode="", extra={"pre_main_s": pre, "program_s": prog, "post_main_s": post}))
    for exp, rule, verdict, fig in (
            ("probe.coalescing", "strided access wastes bandwidth", "holds", "stride 32 reads at 12.5 % of stride 1"),
            ("probe.banks", "padding [32][33] removes bank conflicts", "holds", "column read 32 -> 1 cycles/access"),
            ("probe.atomics", "never let every thread hit one atomic", "does not hold",
             "same-address atomics run at 0.9x distinct-address speed (the compiler aggregates per warp)"),
            ("probe.barriers", "__syncthreads is cheap", "depends", "12 ns at 32 threads, 60 ns at 1024")):
        out.append(rec(rng, exp, "verdict", 1.0, n=1, unit="x", scope="VALUE", mode="",
                       extra={"rule": rule, "verdict": verdict, "figure": fig}))
    out.append(rec(rng, "newexp", "alpha", 3.1e-3, rung=-1, backend="cpu", scope="CPU_COMPUTE", mode="",
                   axes={"n": 1000}))
    out.append(rec(rng, "newexp", "beta", 0, axes={"n": 1000}, skipped="no GPU: fixture"))
    return out


VK_REDUCE = [  # variant, rung, technique, seconds at 2^24 on the H200 (invented), on lavapipe (invented)
    ("vk_v1_atomic", 1, "one atomicAdd per element", 480.0e-6, 0.45),
    ("vk_v2_tree", 2, "workgroup-memory tree", 97.0e-6, 2.9),
    ("vk_v3_coarsen", 3, "grid-stride register sums + workgroup tree", 25.0e-6, 0.12),
    ("vk_v4_subgroup", 4, "grid-stride + subgroupAdd", 20.0e-6, 0.088),
    ("vk_v5_vec4", 5, "uvec4 loads + subgroupAdd", 17.6e-6, 0.052),
    ("vk_v6_single_pass", 6, "v5 + last-workgroup-done ticket", 18.1e-6, 0.058),
]
LAVAPIPE = dict({k: 0 for k, v in H200.items() if isinstance(v, int) and not isinstance(v, bool)},
                present=True, index=0, name="llvmpipe (LLVM 15.0.6, 256 bits)", compute_capability="0.0", warp_size=8,
                global_mem_bytes=2147483648, smem_per_block_optin=32768, pci_bus_id="", clock_bw_Bps=0.0,
                datasheet_bw_Bps=0.0, datasheet_source="memory clock x bus width")


def vulkan_ladder(rng, n, device, lavapipe):
    """The Vulkan ladder (backend vulkan) of one device: v1..v6 and the stream-read ceiling."""
    out, scale = [], n / 2**24
    vk = {"name": device["name"], "api_version": "1.3.230" if lavapipe else "1.4.312", "subgroup_size": device["warp_size"]}
    ceiling = (1.7e9 if lavapipe else 4.42e12)
    out.append(rec(rng, "reduce", "vk_stream_read", 4 * n / ceiling, backend="vulkan", axes={"n": n, "offset": 0},
                   device=device, extra={"value": ceiling, "vulkan": vk}))
    for variant, rung, tech, t_h200, t_lvp in VK_REDUCE:
        out.append(rec(rng, "reduce", variant, (t_lvp if lavapipe else t_h200) * scale, rung=rung, technique=tech,
                       backend="vulkan", axes={"n": n, "offset": 0}, bytes_=4 * n, elements=n, device=device,
                       extra={"vulkan": vk}))
    return out


def rankings(rng):
    """CUDA and Vulkan ladders of the same (invented) H200 and a Vulkan ladder on lavapipe, where one
    atomic per element beats the tree (a rule that flips against the H200)."""
    out = [r for r in reduce_ladder(rng, 2**24) if r["backend"] == "cuda"]
    out += vulkan_ladder(rng, 2**24, dict(H200, warp_size=32), lavapipe=False)
    out += vulkan_ladder(rng, 2**24, LAVAPIPE, lavapipe=True)
    return out


def write(name, records):
    doc = {"schema": "joseki.records/1", "command": COMMAND, "created": "2026-11-29T22:30:00Z", "records": records}
    with open(os.path.join(HERE, name), "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")


def main():
    write("full.json", full(random.Random(1)))
    write("rankings.json", rankings(random.Random(11)))
    # compare: base; a re-run within the noise; a run with two rungs made 3x slower; another GPU.
    noisy = {"cpu_all_cores": 0.10}
    base = reduce_ladder(random.Random(2), 2**24, noise_of=noisy)
    base.append(rec(random.Random(3), "reduce", "r00_removed_later", 30e-6, rung=0, axes={"n": 2**24}))
    rerun = reduce_ladder(random.Random(4), 2**24, jitter=0.003, noise_of=noisy)
    rerun.append(rec(random.Random(5), "reduce", "r08_added", 16e-6, rung=8, axes={"n": 2**24}))
    slowed = reduce_ladder(random.Random(6), 2**24, slow={"r04_warp_shuffle": 3, "cpu_one_core": 3},
                           noise_of=noisy)
    h100 = dict(H200, name="NVIDIA H100 80GB HBM3", pci_bus_id="0000:01:00.0", l2_bytes=52428800, sm_count=132)
    other = reduce_ladder(random.Random(7), 2**24, slow={v: 1.4 for v, *_ in REDUCE if v.startswith("r")})
    for r in other:
        r["device"] = h100
    # Small, exact changes of base: the noisy CPU rung +6 % (inside its ~8 % noise: SAME), a quiet
    # rung +3 % (SLOWER, below the 5 % threshold), another -10 % (FASTER).
    small = json.loads(json.dumps(base))
    for r in small:
        k = {"cpu_all_cores": 1.06, "r06_single_pass": 1.03, "r05_vector_loads": 0.90}.get(r["variant"])
        if k:
            r["samples"] = [x * k for x in r["samples"]]
            r["summary"] = summary(r["samples"])
    write("compare_small.json", small)
    write("compare_base.json", base)
    write("compare_rerun.json", rerun)
    write("compare_slowed.json", slowed)
    write("compare_other_gpu.json", other)


if __name__ == "__main__":
    main()
