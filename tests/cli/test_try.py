"""`joseki try` (issue 18): the user's own kernel compiled with NVRTC, validated like a rung and
ranked inside the reduce ladder. Without a GPU: --list, the compile-only path (NVRTC needs no GPU;
skipped with the reason where NVRTC cannot be loaded), bad files and settings (exit 2 naming FILE:LINE),
and running says plainly that it needs a GPU (exit 1). With a GPU: the good example is exact and
ranked beside the rungs, CUB and the ceiling; the wrong ones are caught with the right message; a
hung kernel is killed; the history ranks the tries."""
import json
import os

from harness import Skip, Suite, expect, expect_exit, validate_records

suite = Suite()
EX = "examples/try/reduce"
QUICK = ["--min-time", "0.002", "--timeout", "0.2", "--min-samples", "3", "--no-ncu"]


def compile_only(s, name, *extra):
    p = s.run("try", f"{EX}/{name}", "--ladder", "reduce", "--compile-only", *extra)
    out = p.stdout + p.stderr
    if p.returncode == 1 and ("NVRTC is not available" in out or "built without CUDA" in out):
        raise Skip(out.strip().splitlines()[-1])
    return p


def hist_dir(s, tag):
    return os.path.join(s.tmp, "history-" + tag)


@suite.test
def list_names_the_ladder_and_its_signature(s):
    p = s.run("try", "--list")
    expect_exit(p, 0, "## ladder reduce", "joseki_reduce(const unsigned int* in, unsigned long long n",
                "output", "wave-vector", "sweepable axes")


@suite.test
def compile_only_reports_registers_and_spills(s):
    p = compile_only(s, "good.cu")
    expect_exit(p, 0, "compiled with NVRTC for sm_90", "registers", "spill stores 0 B", "-DUNROLL=4")


@suite.test
def compile_only_to_ptx_says_no_ptxas(s):
    p = compile_only(s, "naive.cu", "--arch", "compute_90")
    expect_exit(p, 0, "PTX only", "compute_90")


@suite.test
def compile_error_exits_2_with_nvrtc_log_file_and_line(s):
    p = compile_only(s, "broken.cu")
    expect_exit(p, 2, "broken.cu(9): error", "NVRTC could not compile it")


@suite.test
def bad_arch_is_bad_input(s):
    p = compile_only(s, "good.cu", "--arch", "hopper")
    expect_exit(p, 2, "'hopper'")


@suite.test
def missing_file_is_bad_input(s):
    expect_exit(s.run("try", "/nonexistent/k.cu", "--compile-only"), 2, "/nonexistent/k.cu")


@suite.test
def no_file_is_bad_input(s):
    expect_exit(s.run("try", "--ladder", "reduce"), 2, "FILE")


@suite.test
def unknown_ladder_is_bad_input_listing_the_ladders(s):
    expect_exit(s.run("try", f"{EX}/good.cu", "--ladder", "sort"), 2, "'sort'", "reduce")


@suite.test
def unknown_setting_names_file_and_line(s):
    path = os.path.join(s.tmp, "colour.cu")
    with open(path, "w") as f:
        f.write("// a kernel\n// joseki: colour=red\nextern \"C\" __global__ void joseki_reduce() {}\n")
    expect_exit(s.run("try", path, "--compile-only"), 2, "colour.cu:2", "'colour'")


@suite.test
def bad_setting_value_names_file_and_line(s):
    path = os.path.join(s.tmp, "badgrid.cu")
    with open(path, "w") as f:
        f.write("// joseki: grid=diagonal\n")
    expect_exit(s.run("try", path, "--compile-only"), 2, "badgrid.cu:1", "grid=diagonal")


@suite.test
def ladder_setting_must_match(s):
    path = os.path.join(s.tmp, "other.cu")
    with open(path, "w") as f:
        f.write("// joseki: ladder=sort\n")
    expect_exit(s.run("try", path, "--ladder", "reduce", "--compile-only"), 2, "other.cu:1", "ladder=sort")


@suite.test
def running_without_gpu_says_so(s):
    if s.gpu():
        raise Skip("this machine has a GPU (the GPU checks below cover the run)")
    h = hist_dir(s, "nogpu")
    p = s.run("try", f"{EX}/good.cu", "--ladder", "reduce", "--history-dir", h)
    expect_exit(p, 1, "needs a GPU", "--compile-only")


@suite.test
def history_without_tries_says_so(s):
    p = s.run("try", "--history", "--ladder", "reduce", "--history-dir", hist_dir(s, "empty"))
    expect_exit(p, 0, "no tries recorded")


# ---- with a GPU ----

def need_gpu(s):
    if not s.gpu():
        raise Skip("no GPU: " + s._gpu_reason)


@suite.test
def good_kernel_is_exact_and_ranked_beside_the_ladder(s):
    need_gpu(s)
    h = hist_dir(s, "gpu")
    rec = os.path.join(s.tmp, "try.json")
    p = s.run("--json", rec, "try", f"{EX}/good.cu", "--ladder", "reduce", "--history-dir", h, *QUICK)
    expect_exit(p, 0, "**try_good** (yours)", "r10_two_slot", "r00_cub", "(limit) stream_read", "x best rung",
                "yours: rank", "validated: exact", "registers", "occupancy", "file to ranked table")
    try:
        doc = validate_records(rec)  # the schema check where python3-jsonschema is installed
    except Skip:
        with open(rec) as f:
            doc = json.load(f)
    mine = [r for r in doc["records"] if r["variant"] == "try_good"]
    expect(mine and mine[0]["validation"] == "exact", "the try's record is exact")
    expect(any(r["variant"] == "r10_two_slot" for r in doc["records"]), "the ladder's rungs are in the records")
    files = os.listdir(os.path.join(h, "reduce"))
    expect(len(files) == 1 and files[0].endswith("-good.json"), f"one history record: {files}")


@suite.test
def naive_and_warp_kernels_are_exact(s):
    need_gpu(s)
    h = hist_dir(s, "gpu")
    for name in ("naive.cu", "warp.cu"):
        p = s.run("try", f"{EX}/{name}", "--ladder", "reduce", "--history-dir", h, "--rungs", "r04,r10,cub", *QUICK)
        expect_exit(p, 0, "(yours)", "yours: rank")


@suite.test
def wrong_kernel_names_the_first_failing_case(s):
    need_gpu(s)
    p = s.run("try", f"{EX}/wrong_oob.cu", "--ladder", "reduce", "--history-dir", hist_dir(s, "gpu"))
    expect_exit(p, 1, "your kernel is wrong", "first failing case n = 1", "after in[n - 1]", "reads past the end",
                "--sanitize")


@suite.test
def wrong_signature_is_bad_input_naming_the_signature(s):
    need_gpu(s)
    p = s.run("try", f"{EX}/wrong_signature.cu", "--ladder", "reduce", "--history-dir", hist_dir(s, "gpu"))
    expect_exit(p, 2, "takes 3 parameter(s)", "5 parameters of 8, 8, 8, 4, 8 bytes")


@suite.test
def hung_kernel_is_killed_with_a_clear_message(s):
    need_gpu(s)
    p = s.run("try", f"{EX}/hang.cu", "--ladder", "reduce", "--kill-after", "8", "--history-dir", hist_dir(s, "gpu"),
              timeout=120)
    expect_exit(p, 1, "did not finish", "killed after 8 s", "validat")


@suite.test
def sanitize_reports_the_out_of_bounds_read_with_file_and_line(s):
    need_gpu(s)
    p = s.run("try", f"{EX}/wrong_oob.cu", "--ladder", "reduce", "--sanitize", "--history-dir", hist_dir(s, "gpu"),
              timeout=300)
    out = p.stdout + p.stderr
    if "needs compute-sanitizer" in out:
        raise Skip("no compute-sanitizer on this host")
    expect_exit(p, 1, "memcheck", "Invalid __global__ read", "wrong_oob.cu:", "n = 1, 5, 4099, 65537",
                "exactly n words", "--report-api-errors no")
    # The kernel's errors alone: joseki's own calls (the signature check) are no report of the kernel's.
    expect("Program hit" not in out and "cudaFuncGetParamInfo" not in out,
           f"the sanitizer report holds an API error of joseki's:\n{out[-3000:]}")


@suite.test
def sanitize_reports_the_race_with_file_and_line(s):
    need_gpu(s)
    p = s.run("try", f"{EX}/wrong_race.cu", "--ladder", "reduce", "--sanitize", "--kill-after", "50",
              "--history-dir", hist_dir(s, "gpu"), timeout=150)
    out = p.stdout + p.stderr
    if "needs compute-sanitizer" in out:
        raise Skip("no compute-sanitizer on this host")
    expect_exit(p, 1, "racecheck", "hazard", "wrong_race.cu:")
    expect("did not finish" not in out, f"a sanitizer ran past --kill-after 50:\n{out[-3000:]}")


@suite.test
def history_ranks_the_tries(s):
    need_gpu(s)
    p = s.run("try", "--history", "--ladder", "reduce", "--history-dir", hist_dir(s, "gpu"))
    expect_exit(p, 0, "your tries on the reduce ladder", "good.cu", "wrong_oob.cu", "wrong", "timeout")


suite.main()
