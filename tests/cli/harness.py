"""Tiny test harness for the CLI tests (plain python3, no pytest needed).

Each test file: `from harness import Suite`; define checks with @suite.test; call suite.main().
Prints one line per check and the closing line 'N passed, N failed, N skipped'.
Exit code: 0 all passed (skips allowed), 1 any failure; 77 when every check skipped.
"""
import json
import os
import subprocess
import sys
import tempfile
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Skip(Exception):
    pass


class Suite:
    def __init__(self):
        self.tests = []
        self.exe = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.join(ROOT, "build/release/joseki")
        self.tmp = tempfile.mkdtemp(prefix="joseki-cli-")

    def test(self, fn):
        self.tests.append(fn)
        return fn

    def env(self, extra=None):
        """The environment every child gets. Hermetic: the cost file auto weighs and `joseki device`
        writes lives in this suite's temp folder, never the user's ~/.cache (a test that wants one
        passes JOSEKI_COSTS in extra)."""
        e = dict(os.environ)
        e.pop("JOSEKI_COSTS", None)
        e["XDG_CACHE_HOME"] = os.path.join(self.tmp, "cache")
        if extra:
            e.update(extra)
        return e

    def run(self, *args, stdin=None, timeout=600, env=None):
        e = self.env(env)
        p = subprocess.run([self.exe, *args], input=stdin, capture_output=True, text=True, timeout=timeout, env=e,
                           cwd=ROOT)
        return p

    def gpu(self):
        """True when this machine has a usable GPU (asks joseki itself)."""
        if not hasattr(self, "_gpu"):
            p = self.run("check", "--quiet")
            self._gpu = p.returncode == 0
            self._gpu_reason = (p.stderr or p.stdout).strip().splitlines()[-1] if p.returncode else ""
        return self._gpu

    def main(self):
        passed = failed = skipped = 0
        for t in self.tests:
            try:
                t(self)
                print(f"PASS {t.__name__}")
                passed += 1
            except Skip as s:
                print(f"SKIP {t.__name__}: {s}")
                skipped += 1
            except Exception:
                print(f"FAIL {t.__name__}")
                traceback.print_exc(file=sys.stdout)
                failed += 1
        print(f"{passed} passed, {failed} failed, {skipped} skipped")
        if failed:
            sys.exit(1)
        if passed == 0 and skipped > 0:
            sys.exit(77)
        sys.exit(0)


def ladder(r):
    """A record's typed ladder fields (joseki.record/2); {} when it has none."""
    return r.get("ladder") or {}


def expect(cond, msg=""):
    if not cond:
        raise AssertionError(msg)


def expect_exit(p, code, *needles):
    out = p.stdout + p.stderr
    expect(p.returncode == code, f"exit code {p.returncode}, expected {code}\n--- output ---\n{out}")
    for n in needles:
        expect(n in out, f"output lacks {n!r}\n--- output ---\n{out}")


def validate_records(path):
    """Validate a records file against docs/records.schema.json (python3-jsonschema)."""
    try:
        import jsonschema
    except ImportError:
        raise Skip("python3-jsonschema is not installed here")
    with open(os.path.join(ROOT, "docs/records.schema.json")) as f:
        schema = json.load(f)
    with open(path) as f:
        doc = json.load(f)
    jsonschema.validate(doc, schema)
    return doc
