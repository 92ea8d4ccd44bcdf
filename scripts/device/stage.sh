#!/usr/bin/env bash
# Here (the build machine): copy the binaries the GPU host needs into .device/ (git-ignored),
# which the device call carries. The GPU host has the driver but no -dev packages: the
# binaries are static apart from libc/libm.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
B=${JOSEKI_BUILD_DIR:-build/${JOSEKI_PRESET:-release}}
rm -rf .device && mkdir -p .device/bin
cp "$B/joseki" .device/bin/
for t in "$B"/tests/joseki_*_tests "$B"/tests/scope_child; do [[ -x $t ]] && cp "$t" .device/bin/; done
for extra in "$B"/probes/*; do [[ -x $extra ]] && cp "$extra" .device/bin/ || true; done
mkdir -p .device/testdata && cp -r ../shared/testdata/abc471g .device/testdata/
strip .device/bin/* 2>/dev/null || true
git rev-parse HEAD > .device/commit
git status --porcelain --untracked-files=no | grep -q . && echo dirty >> .device/commit || true
du -sh .device
