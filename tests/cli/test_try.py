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


# ---- the ABC471G direct ladder (the count kernel) ----
DX = "examples/try/abc471g-direct"
DL = ["--ladder", "abc471g-direct"]


def direct_compile_only(s, path, *extra):
    p = s.run("try", path, *DL, "--compile-only", *extra)
    out = p.stdout + p.stderr
    if p.returncode == 1 and ("NVRTC is not available" in out or "built without CUDA" in out):
        raise Skip(out.strip().splitlines()[-1])
    return p


def write_kernel(s, name, text):
    path = os.path.join(s.tmp, name)
    with open(path, "w") as f:
        f.write(text)
    return path


COUNT_SIG = ("extern \"C\" __global__ void joseki_count(const unsigned int* a, unsigned long long n,\n"
             "                                        const unsigned char* v, unsigned int k, unsigned int* answer)")


@suite.test
def list_names_the_direct_ladder_and_its_signature(s):
    p = s.run("try", "--list")
    expect_exit(p, 0, "## ladder abc471g-direct", "joseki_count(const unsigned int* a, unsigned long long n, "
                "const unsigned char* v, unsigned int k, unsigned int* answer)", "chunk", "output", "g01 ... g15")
    expect("not offered yet" not in p.stdout, "--list still says abc471g-direct is not offered")


@suite.test
def direct_compile_only_reports_registers_and_spills(s):
    for name, defines in (("good.cu", "-DCHUNK=8192ull"), ("naive.cu", None), ("wrong.cu", "-DCHUNK=8192ull")):
        p = direct_compile_only(s, f"{DX}/{name}")
        expect_exit(p, 0, "compiled with NVRTC for sm_90", "registers", "spill stores 0 B")
        if defines:
            expect(defines in p.stdout, f"{name}: {defines} not in the compile report:\n{p.stdout}")


@suite.test
def direct_compile_error_exits_2_with_nvrtc_log_file_and_line(s):
    path = write_kernel(s, "typo.cu", "// joseki: ladder=abc471g-direct\n" + COUNT_SIG + " {\n"
                        "  unsigned int s = blockIdx.x * blockDim.x + threadIdx.x\n"  # line 4: no ';'
                        "  if (s < k) answer[s] = 0;\n}\n")
    p = direct_compile_only(s, path)
    expect_exit(p, 2, "typo.cu(5): error", "NVRTC could not compile it")


@suite.test
def direct_signature_mismatch_is_bad_input(s):
    path = write_kernel(s, "fourargs.cu", "// joseki: ladder=abc471g-direct\n"
                        "extern \"C\" __global__ void joseki_count(const unsigned int* a, unsigned long long n,\n"
                        "    const unsigned char* v, unsigned int* answer) { answer[0] = a[0] + v[0] + n; }\n")
    p = direct_compile_only(s, path)
    expect_exit(p, 2, "fourargs.cu", "joseki_count takes 4 parameter(s) of 8, 8, 8, 8 bytes",
                "5 parameters of 8, 8, 8, 4, 8 bytes")
    path = write_kernel(s, "noentry.cu", "extern \"C\" __global__ void count(unsigned int* x) { x[0] = 1; }\n")
    expect_exit(direct_compile_only(s, path), 2, "no kernel named joseki_count")


@suite.test
def reduce_signature_mismatch_is_caught_by_compile_only(s):
    p = compile_only(s, "wrong_signature.cu")
    expect_exit(p, 2, "joseki_reduce takes 3 parameter(s) of 8, 8, 8 bytes", "5 parameters of 8, 8, 8, 4, 8 bytes")


@suite.test
def direct_chunk_without_the_chunk_macro_is_bad_input(s):
    path = write_kernel(s, "nochunk.cu", "// x\n// joseki: chunk=4096\n" + COUNT_SIG + " {}\n")
    expect_exit(s.run("try", path, *DL, "--compile-only"), 2, "nochunk.cu:2", "chunk=4096", "never uses CHUNK")


@suite.test
def direct_bad_settings_name_file_and_line(s):
    path = write_kernel(s, "badout.cu", "// joseki: output=two-slot\n")
    expect_exit(s.run("try", path, *DL, "--compile-only"), 2, "badout.cu:1", "output=two-slot")
    path = write_kernel(s, "badblock.cu", "// joseki: block=2048\n")
    expect_exit(s.run("try", path, *DL, "--compile-only"), 2, "badblock.cu:1", "block=2048")
    path = write_kernel(s, "unroll.cu", "// joseki: unroll=4\n")
    expect_exit(s.run("try", path, *DL, "--compile-only"), 2, "unroll.cu:1", "'unroll'")
    # The examples' settings are valid for their ladder, and not for the other one.
    expect_exit(s.run("try", f"{DX}/good.cu", "--ladder", "reduce", "--compile-only"), 2, "good.cu:11")


@suite.test
def direct_running_without_gpu_says_so(s):
    if s.gpu():
        raise Skip("this machine has a GPU (the GPU checks below cover the run)")
    p = s.run("try", f"{DX}/good.cu", *DL, "--history-dir", hist_dir(s, "nogpu-direct"))
    expect_exit(p, 1, "needs a GPU", "--compile-only")


@suite.test
def direct_good_kernel_is_exact_and_ranked_beside_the_ladder(s):
    need_gpu(s)
    h = hist_dir(s, "gpu-direct")
    rec = os.path.join(s.tmp, "try-direct.json")
    p = s.run("--json", rec, "try", f"{DX}/good.cu", *DL, "--history-dir", h, "--rungs", "g01,g02,g15", *QUICK,
              timeout=300)
    expect_exit(p, 0, "**try_good** (yours)", "g02_chunked", "g15_warp_summed", "x best rung", "x g01",
                "yours: rank", "validated: exact", "registers", "occupancy", "file to ranked table")
    with open(rec) as f:
        doc = json.load(f)
    mine = [r for r in doc["records"] if r["variant"] == "try_good"]
    expect(mine and all(r["validation"] == "exact" for r in mine), "the try's records are exact")
    files = os.listdir(os.path.join(h, "abc471g-direct"))
    expect(len(files) == 1 and files[0].endswith("-good.json"), f"one history record: {files}")


@suite.test
def direct_naive_kernel_is_exact(s):
    need_gpu(s)
    p = s.run("try", f"{DX}/naive.cu", *DL, "--history-dir", hist_dir(s, "gpu-direct"), "--rungs", "g01,g02",
              *QUICK, timeout=300)
    expect_exit(p, 0, "**try_naive** (yours)", "yours: rank")


@suite.test
def direct_wrong_kernel_names_the_first_differing_shift(s):
    need_gpu(s)
    p = s.run("try", f"{DX}/wrong.cu", *DL, "--history-dir", hist_dir(s, "gpu-direct"), timeout=300)
    expect_exit(p, 1, "your kernel is wrong", "shifts differ", "k=", "got", "expected", "--sanitize")


suite.main()
