#!/usr/bin/env bash
# Device, issue 42: the solver on 16 cores against one process (same run), and OpenMP's wait policy.
set -uo pipefail
cd "$(dirname "$0")/../.."
export PYTHONPATH="$PWD/src" PYTHONUNBUFFERED=1
OUT="${OUT:-$PWD/benchmarks/device/out}"; mkdir -p "$OUT"
{
echo "== $(nproc) cores, $(python3 -V), numba $(python3 -c 'import numba; print(numba.__version__)'), numpy $(python3 -c 'import numpy; print(numpy.__version__)'); load $(cat /proc/loadavg)"
t0=$(date +%s); python3 -m ricochet warm --only solver,threads 2>&1; echo "== warm: $(( $(date +%s) - t0 )) s"
t0=$(date +%s); timeout "${BENCH_LIMIT:-200}" python3 -m ricochet bench --jobs 16 --sets asp,random --rounds "${ROUNDS:-3}" --no-startup 2>&1
echo "== bench: $(( $(date +%s) - t0 )) s"
for pol in ACTIVE PASSIVE; do OMP_WAIT_POLICY=$pol timeout "${OMP_LIMIT:-60}" python3 benchmarks/device/omp_policy.py 2>&1; done
echo "== done, load $(cat /proc/loadavg)"
} 2>&1 | tee "$OUT/cpu16.txt"
