#!/usr/bin/env bash
# Builds the libFuzzer targets (build-fuzz/: clang, -DMIRRORDESK_FUZZ=ON, ASan +
# UBSan) and runs each one, from its seed corpus tests/fuzz/corpus/<target>/.
# Exits non-zero when a target crashes, leaks or hits undefined behaviour; the
# input that did it is left in build-fuzz/artifacts/.
#
#   bash tests/fuzz/run.sh [SECONDS] [TARGET...]   each target for SECONDS (default 60)
# Env: MIRRORDESK_FUZZ_RUNS=N  run each target for N executions instead of a time
#      MIRRORDESK_FUZZ_DIR      build dir (default <repo>/build-fuzz)
# Inputs found along the way go to build-fuzz/corpus/<target>/ (kept between runs),
# never into the seeds.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${MIRRORDESK_FUZZ_DIR:-$ROOT/build-fuzz}"
SECONDS_EACH="${1:-60}"
shift || true

command -v clang++ >/dev/null || { echo "fuzz: clang++ not found (bash installer/deps.sh)" >&2; exit 2; }
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
if [[ ! -f "$BUILD/CMakeCache.txt" ]]; then
    cmake -S "$ROOT" -B "$BUILD" -G Ninja -DMIRRORDESK_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_CXX_COMPILER=clang++ "${launcher[@]}" >"$BUILD.configure.log" 2>&1 || {
        cat "$BUILD.configure.log"; echo "fuzz: configure failed" >&2; exit 1; }
    mv "$BUILD.configure.log" "$BUILD/configure.log"
fi
cmake --build "$BUILD" -j 2 >"$BUILD/build.log" 2>&1 || {
    tail -50 "$BUILD/build.log"; echo "fuzz: build failed (see $BUILD/build.log)" >&2; exit 1; }

targets=("$@")
if (( ${#targets[@]} == 0 )); then
    for f in "$ROOT"/tests/fuzz/fuzz_*.cpp; do targets+=("$(basename "$f" .cpp)"); done
fi

if [[ -n "${MIRRORDESK_FUZZ_RUNS:-}" ]]; then
    limit=(-runs="$MIRRORDESK_FUZZ_RUNS")
else
    limit=(-max_total_time="$SECONDS_EACH")
fi
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
mkdir -p "$BUILD/artifacts"
# Two targets at a time (MIRRORDESK_FUZZ_JOBS): each is one process on one core.
jobs="${MIRRORDESK_FUZZ_JOBS:-2}"
fuzz_one() {
    local t="$1" seeds="$ROOT/tests/fuzz/corpus/${1#fuzz_}" work="$BUILD/corpus/${1#fuzz_}"
    local rc=0
    mkdir -p "$work"
    "$BUILD/tests/fuzz/$t" "${limit[@]}" -print_final_stats=1 \
        -artifact_prefix="$BUILD/artifacts/$t-" "$work" "$seeds" >"$BUILD/$t.log" 2>&1 || rc=$?
    echo "$rc" >"$BUILD/$t.rc"
}
running=0
for t in "${targets[@]}"; do
    echo "fuzz: $t (${limit[*]})"
    rm -f "$BUILD/$t.rc"
    fuzz_one "$t" &
    running=$((running + 1))
    if (( running >= jobs )); then
        wait -n || true
        running=$((running - 1))
    fi
done
wait
failed=()
for t in "${targets[@]}"; do
    log="$BUILD/$t.log"
    if [[ "$(cat "$BUILD/$t.rc" 2>/dev/null)" == 0 ]]; then
        # "stat::number_of_executed_units: N" and the speed, for the record.
        printf '%s: ' "$t"
        grep -E '^(stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb)' "$log" | tr '\n' ' '
        echo
    else
        tail -60 "$log"
        echo "fuzz: $t FAILED (log $log, input in $BUILD/artifacts/)" >&2
        failed+=("$t")
    fi
done
if (( ${#failed[@]} > 0 )); then
    echo "fuzz: failed: ${failed[*]}" >&2
    exit 1
fi
echo "fuzz: ${#targets[@]} targets, no crash"
