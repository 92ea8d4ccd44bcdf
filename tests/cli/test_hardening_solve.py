"""Hostile input to the solver's command (issue 21): threads that cannot start, unsigned options,
endless or junk input read as a stream, CR line endings, progress with the time left for long solves."""
import os
import subprocess

from harness import ROOT, Suite, expect, expect_exit

suite = Suite()


# ---- item 2: a thread that cannot start hung the process forever ----
def _limit_address_space():
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
    resource.setrlimit(resource.RLIMIT_STACK, (8 << 20, 8 << 20))


@suite.test
def threads_that_cannot_start_are_an_error_not_a_hang(s):
    # N = 2e8: 6103 tasks of cpu-direct, so 4096 threads are asked for; 4096 x 8 MiB stacks > 4 GiB.
    text = "200000000 2 1 1\n0\n1 0\n"
    try:
        p = subprocess.run([s.exe, "abc471g", "solve", "--solver", "cpu-direct", "--threads", "4096"], input=text,
                           capture_output=True, text=True, timeout=120, cwd=ROOT, preexec_fn=_limit_address_space,
                           env=s.env())
    except subprocess.TimeoutExpired:
        raise AssertionError("joseki hung when its threads could not be created")
    if p.returncode == 0:  # the threads did start (a machine with a larger default): the answer must be there
        expect(len(p.stdout.split()) == 2, p.stdout)
    else:
        expect(p.returncode == 1, f"exit {p.returncode}: {p.stderr}")
        expect("thread" in p.stderr.lower(), p.stderr)
        # Under this address-space limit joseki refuses the team before any thread starts, naming the limit and
        # the --threads that fits (libgomp's own fatal message could crash there: the main thread's stack had no
        # address space left to grow into)
        expect("address-space limit" in p.stderr and "--threads" in p.stderr, p.stderr)


@suite.test
def joseki_threads_out_of_range_is_bad_input(s):
    # Under a 4 GiB address-space limit: a regression that starts 40000 threads again fails after a few
    # hundred instead of taking every process id of the machine (as the hand-written pool did).
    for v in ("40000", "0", "-3", "abc", "4097", "99999999999999999999"):
        try:
            p = subprocess.run([s.exe, "abc471g", "solve", "--solver", "cpu-direct"], input="5 3 0 1\n0\n1 0 0\n",
                               capture_output=True, text=True, timeout=60, cwd=ROOT, preexec_fn=_limit_address_space,
                               env=s.env({"JOSEKI_THREADS": v}))
        except subprocess.TimeoutExpired:
            raise AssertionError(f"JOSEKI_THREADS={v}: hung")
        expect_exit(p, 2, "JOSEKI_THREADS=" + v)
    p = s.run("abc471g", "solve", "--solver", "cpu-direct", stdin="5 3 0 1\n0\n1 0 0\n", env={"JOSEKI_THREADS": "3"})
    expect_exit(p, 0)


# ---- item 5: unsigned options wrapped (-1 -> 18446744073709551615) ----
@suite.test
def negative_values_of_unsigned_options_are_refused_as_typed(s):
    for opt in ("--n", "--k", "--m", "--seed", "--rng"):
        p = s.run("abc471g", "gen", opt, "-1")
        expect_exit(p, 2, opt, "-1")
        expect("18446744073709551615" not in p.stderr, p.stderr)
    expect_exit(s.run("abc471g", "gen", "--vowels", "nan"), 2, "--vowels", "nan")


@suite.test
def bench_case_names_the_case_key(s):
    for case, needle in (("N=0", "N=0"), ("N=10,M=20", "M=20"), ("K=0", "K=0")):
        p = s.run("abc471g", "bench", "--case", case, "--solvers", "cpu-direct")
        expect_exit(p, 2, "--case", needle)
        expect("--n " not in p.stderr and "--m " not in p.stderr, p.stderr)


@suite.test
def cr_only_line_endings_count_lines(s):
    p = s.run("abc471g", "solve", stdin="5 3 0 1\r0\r1 0 7\r")
    expect_exit(p, 2, "V_2", "line 3")


# ---- item 10: input read whole before parsing ----
@suite.test
def junk_after_a_valid_header_is_bad_input_at_once(s):
    for junk in (b"x" * 64, b"\0" * 64):
        proc = subprocess.Popen([s.exe, "abc471g", "solve", "--solver", "cpu-direct"], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
        # a valid header, then junk, and the pipe stays open: the answer must not wait for its end
        proc.stdin.write(b"1000 3 0 2\n" + junk)
        proc.stdin.flush()
        try:
            rc = proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise AssertionError("joseki waited for the end of the input after junk")
        err = proc.stderr.read().decode()
        proc.stdin.close()
        expect(rc == 2, f"exit {rc}: {err}")
        expect("b_1" in err, err)


@suite.test
def endless_input_is_bad_input_in_bounded_memory(s):
    import resource

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    # `yes 0 |`: a valid input followed by endless zeros; and /dev/zero
    for src in ("yes0", "zero"):
        if src == "zero":
            feed = open("/dev/zero", "rb")
            args = [s.exe, "abc471g", "solve", "--solver", "cpu-direct"]
            p = subprocess.run(args, stdin=feed, capture_output=True, text=True, timeout=60, cwd=ROOT, preexec_fn=limit,
                               env=s.env())
            feed.close()
            expect(p.returncode == 2, f"/dev/zero: exit {p.returncode}: {p.stderr}")
            expect("N = '" in p.stderr, p.stderr)
        else:
            yes = subprocess.Popen(["sh", "-c", "printf '5 3 0 1\\n0\\n1 0 0\\n'; yes 0"], stdout=subprocess.PIPE)
            p = subprocess.run([s.exe, "abc471g", "solve"], stdin=yes.stdout, capture_output=True, text=True,
                               timeout=60, cwd=ROOT, preexec_fn=limit, env=s.env())
            yes.kill()
            yes.wait()
            expect(p.returncode == 2, f"yes 0: exit {p.returncode}: {p.stderr}")
            expect("extra token '0'" in p.stderr, p.stderr)


# ---- item 9: no progress for a solve of days ----
@suite.test
def long_solves_show_progress_with_the_time_left(s):
    import signal
    import time
    proc = subprocess.Popen([s.exe, "abc471g", "solve", "--solver", "cpu-direct"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
                            env=dict(os.environ, JOSEKI_PROGRESS="1"))
    proc.stdin.write(b"1000000000000000 2300 1 1\n0\n" + b"1 0 " * 1150 + b"\n")
    proc.stdin.close()
    time.sleep(4)
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise AssertionError("SIGTERM did not stop the solve")
    err = proc.stderr.read().decode()
    expect("left" in err and "%" in err, f"no progress line with the time left: {err!r}")
    expect(" d " in err or "years" in err, f"the estimate for N = 10^15 should be days: {err!r}")


if __name__ == "__main__":
    suite.main()
