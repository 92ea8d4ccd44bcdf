#!/usr/bin/env bash
# The main job: install, build, and run the whole joseki tour (`joseki run`).
# Arguments go to `joseki run` (e.g. --quick, --only reduce, --out DIR).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup.sh
exec "build/${JOSEKI_PRESET:-release}/joseki" run "$@"
