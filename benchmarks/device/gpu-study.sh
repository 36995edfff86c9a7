#!/usr/bin/env bash
# Issue 47 on the lent GPU machine (NVIDIA H200, 16 cores, numpy/numba/numba-cuda, no network).
# Run from the repository root:   bash benchmarks/device/gpu-study.sh
#
# 1. the machine and package versions;
# 2. CPU (16 threads) against GPU, byte for byte, on the claim's board (benchmarks/device/gpu_check.py): 3 robots,
#    then the 4-robot vortex and blue-triangle tables, timed, and the claim's/contender's positions looked up;
# 3. the study on the GPU, 17 tables a board (16 coloured targets + the vortex), the claim's board and the
#    contender's first (the same board turned a quarter: a check), then six more; one JSON line per table
#    appended to $OUT/study.jsonl as it is done, per-table seconds printed as it goes.  Stopped (SIGINT)
#    after STUDY_SECONDS; the lines written stay.
#
# Resuming: $OUT starts empty on every run.  Copy the returned study.jsonl to benchmarks/device/gpu-study.jsonl
# (it travels with the working tree): the study then skips the tables in it.
#
# Env: OUT (default benchmarks/device/out), STUDY_SECONDS (default 200), CHECK_SECONDS (default 150), SKIP_CHECK=1,
#      PYTHON (default python3), GPU_STUDY_TINY=1 (test this script here: tiny boards, CUDA simulator).
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-$PWD/benchmarks/device/out}
mkdir -p "$OUT"
export PYTHONPATH=$PWD/src${PYTHONPATH:+:$PYTHONPATH}
PY=${PYTHON:-python3}
START=$(date +%s)
stamp() { echo "[$(( $(date +%s) - START )) s] $*"; }

ROBOTS=4
TARGETS=all
BOARDS=(--dd-layout "4B 3B / 1A 2B" --dd-layout "1A 4B / 2B 3B"
        --tiles 1A,3B,4A,2A --tiles 1A,2A,3A,4A --tiles 1B,2B,3B,4B
        --tiles 1A,2B,3A,4B --tiles 1B,2A,4B,3A --tiles 1A,4A,2B,3B)
if [ "${GPU_STUDY_TINY:-}" = 1 ]; then
    export NUMBA_ENABLE_CUDASIM=1
    ROBOTS=1
    TARGETS=blue-triangle,vortex
    BOARDS=(--dd-layout "4B 3B / 1A 2B" --tiles 1A,3B,4A,2A)
fi

stamp "== machine"
nvidia-smi -L 2>&1 || echo "(no nvidia-smi)"
echo "cores: $(nproc)"
$PY - <<'PYEOF'
import sys, numpy, numba
print("python", sys.version.split()[0], "| numpy", numpy.__version__, "| numba", numba.__version__, end="")
try:
    from importlib.metadata import version
    print(" | numba-cuda", version("numba-cuda"))
except Exception as e:  # noqa: BLE001
    print(" | numba-cuda: not installed?", e)
for name in ("distributed", "zstandard"):
    try:
        __import__(name)
        print(name, "installed")
    except ImportError:
        print(name, "not installed (not needed)")
from numba import cuda
print("cuda.is_available():", cuda.is_available())
PYEOF

if [ -f benchmarks/device/gpu-study.jsonl ] && [ ! -f "$OUT/study.jsonl" ]; then
    cp benchmarks/device/gpu-study.jsonl "$OUT/study.jsonl"
    stamp "resuming: $(wc -l < "$OUT/study.jsonl") tables already done (benchmarks/device/gpu-study.jsonl)"
fi

if [ "${SKIP_CHECK:-}" != 1 ]; then
    stamp "== CPU vs GPU, byte for byte"
    timeout "${CHECK_SECONDS:-150}" $PY benchmarks/device/gpu_check.py 2>&1 | tee "$OUT/check.txt"
    echo "check exit status: ${PIPESTATUS[0]}" | tee -a "$OUT/check.txt"
fi

stamp "== study (GPU), until ${STUDY_SECONDS:-200} s"
timeout -s INT "${STUDY_SECONDS:-200}" $PY -m ricochet tablebase study --local --gpu "${BOARDS[@]}" \
    --targets "$TARGETS" --robots "$ROBOTS" --records 5 -o "$OUT/study.jsonl" > "$OUT/report.md" 2> >(tee "$OUT/study.log" >&2)
echo "study exit status: $? ($(wc -l < "$OUT/study.jsonl" 2>/dev/null || echo 0) tables in $OUT/study.jsonl)"
cat "$OUT/report.md" 2>/dev/null | tail -30
stamp "== record positions"
$PY -m ricochet tablebase hardest "$OUT/study.jsonl" 2>&1 | head -20
stamp "done"
