#!/usr/bin/env bash
# The sanitizer runs of issue #18, by hand (CI does not run them: too slow for
# its time limit; see the timings in the last run's report).
#
#   bash tests/sanitizers/run.sh asan   # build-asan: unit, gui and integration tests
#                                       # under AddressSanitizer + UBSan (+ LeakSanitizer),
#                                       # on librdkafka built with them too
#                                       # (installer/librdkafka.sh --asan, built when missing)
#   bash tests/sanitizers/run.sh tsan   # build-tsan: the engine tests under ThreadSanitizer,
#                                       # on librdkafka built with it
#                                       # (installer/librdkafka.sh --tsan, built when missing)
#   bash tests/sanitizers/run.sh all    # both, one after the other
#
# Each run configures its preset (CMakePresets.json) when build-<preset>/ has
# none, builds the tests it runs, starts private brokers in its own state dir
# (integration tests kill and restart brokers: never the shared ones), runs
# ctest with -FA ^kafka$ (the fixture would restart them; the second lane's
# kafka2 fixture starts its own pair as usual) and stops the brokers at the
# end, also when interrupted.
#
# Env: MIRRORDESK_KAFKA_STATE   the brokers' state dir (default: <build dir>/kafka-state)
#      SANITIZE_CTEST_ARGS      extra ctest arguments (e.g. "-R tst_resume")
#      SANITIZE_JOBS            build jobs (default 2)
# Reports: build-<preset>/sanitizer-logs/<report>.<pid> (ASAN/UBSAN/TSAN log_path)
# beside ctest's own output; the run fails when any test fails or any report is written.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
SUPP="$ROOT/tests/sanitizers"
cd "$ROOT"

# The engine tests the thread sanitizer runs: the mirror engine's threads,
# its commands and the group sync runner beside it.
TSAN_TESTS=(unit/tst_mirrorjob_mock unit/tst_workerthread integration/tst_resume
            integration/tst_offset_map integration/tst_groupsync integration/tst_mirror_positions)

log() { printf '\n=== sanitize: %s\n' "$*"; }

configure() { # preset, cmake arguments...
    local dir="$ROOT/build-$1" preset="$1"
    shift
    if [[ ! -f "$dir/CMakeCache.txt" ]]; then
        local extra=()
        command -v ccache >/dev/null && extra+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
        [[ -n "${MIRRORDESK_KAFKA_STATE:-}" ]] && extra+=("-DMIRRORDESK_KAFKA_STATE=$MIRRORDESK_KAFKA_STATE")
        cmake --preset "$preset" "${extra[@]}" "$@" >/dev/null
    fi
}

cached() { # build dir, cache variable
    sed -n "s/^$2:[A-Z]*=//p" "$1/CMakeCache.txt"
}

kafka_state() { # build dir
    cached "$1" MIRRORDESK_KAFKA_STATE
}

BROKER_STATE=""
stop_brokers() {
    if [[ -n "$BROKER_STATE" ]]; then
        MIRRORDESK_KAFKA_STATE="$BROKER_STATE" bash "$ROOT/tests/kafka/harness.sh" stop-all >/dev/null 2>&1 || true
        BROKER_STATE=""
    fi
}
trap stop_brokers EXIT
trap 'exit 130' INT TERM

start_brokers() { # build dir
    BROKER_STATE="$(kafka_state "$1")"
    MIRRORDESK_KAFKA_STATE="$BROKER_STATE" bash "$ROOT/tests/kafka/harness.sh" stop-all >/dev/null 2>&1 || true
    # The first lane's port range: the second lane's pair (kafka2 fixture) picks from its own.
    MIRRORDESK_KAFKA_STATE="$BROKER_STATE" MIRRORDESK_KAFKA_PORTS=20000-25999 \
        bash "$ROOT/tests/kafka/harness.sh" start-all
}

run_ctest() { # build dir, ctest selection...
    local dir="$1"; shift
    local logs="$dir/sanitizer-logs"
    rm -rf "$logs"; mkdir -p "$logs"
    local rc=0
    # TSan: ignore_noninstrumented_modules, the memory effects of the calls
    # uninstrumented libraries (Qt, GLib, libstdc++) make into TSan's runtime
    # (malloc, free, memcpy, fd calls) are not checked: their own locking
    # (QMutex is a futex) is invisible to TSan, so Qt deleting an event another
    # thread posted looks like a race. Their pthread locking is still seen, and
    # every access our code (and librdkafka, instrumented) makes is checked.
    # shellcheck disable=SC2086  # extra args are words on purpose
    ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:log_path=$logs/asan" \
    LSAN_OPTIONS="suppressions=$SUPP/lsan.supp:print_suppressions=0" \
    UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:suppressions=$SUPP/ubsan.supp:log_path=$logs/ubsan" \
    TSAN_OPTIONS="suppressions=$SUPP/tsan.supp:ignore_noninstrumented_modules=1:second_deadlock_stack=1:log_path=$logs/tsan" \
        nice -n 19 ctest --test-dir "$dir" -FA '^kafka$' --output-on-failure "$@" ${SANITIZE_CTEST_ARGS:-} || rc=$?
    local reports
    reports="$(find "$logs" -type f | wc -l)"
    if (( reports > 0 )); then
        echo "sanitize: $reports sanitizer report(s) in $logs:"
        grep -h -m1 -E '^(SUMMARY|.*runtime error)' "$logs"/* | sort | uniq -c || true
        (( rc != 0 )) || rc=1
    fi
    return "$rc"
}

run_asan() {
    local t=$SECONDS dir="$ROOT/build-asan" rdkafka
    # librdkafka instrumented too (see installer/librdkafka.sh --asan): a
    # write into freed memory inside it, or by us into its buffers, is seen.
    # A build dir configured with another one is switched over to it.
    rdkafka="$(nice -n 19 bash "$ROOT/installer/librdkafka.sh" --asan)"
    if [[ -f "$dir/CMakeCache.txt" && "$(cached "$dir" MIRRORDESK_RDKAFKA_PREFIX)" != "$rdkafka" ]]; then
        cmake -S "$ROOT" -B "$dir" -DMIRRORDESK_RDKAFKA_PREFIX="$rdkafka" -URdKafka_DIR >/dev/null
    fi
    configure asan -DMIRRORDESK_RDKAFKA_PREFIX="$rdkafka"
    log "asan: build"
    nice -n 19 cmake --build "$dir" -j "${SANITIZE_JOBS:-2}"
    echo "built in $((SECONDS - t))s"
    t=$SECONDS
    start_brokers "$dir"
    log "asan: unit, gui and integration tests"
    local rc=0
    run_ctest "$dir" -L 'unit|gui|integration' || rc=$?
    stop_brokers
    echo "asan: tests ran in $((SECONDS - t))s, rc=$rc"
    return "$rc"
}

run_tsan() {
    local t=$SECONDS dir="$ROOT/build-tsan" targets=() regex="" rdkafka
    # librdkafka on pthreads and instrumented (see installer/librdkafka.sh);
    # a build dir configured with another one is switched over to it.
    rdkafka="$(nice -n 19 bash "$ROOT/installer/librdkafka.sh" --tsan)"
    if [[ -f "$dir/CMakeCache.txt" && "$(cached "$dir" MIRRORDESK_RDKAFKA_PREFIX)" != "$rdkafka" ]]; then
        cmake -S "$ROOT" -B "$dir" -DMIRRORDESK_RDKAFKA_PREFIX="$rdkafka" -URdKafka_DIR >/dev/null
    fi
    configure tsan -DMIRRORDESK_RDKAFKA_PREFIX="$rdkafka"
    for n in "${TSAN_TESTS[@]}"; do
        targets+=(--target "${n/\//_}")
        regex+="${regex:+|}^$n\$"
    done
    log "tsan: build"
    # The integration tests start the mirrordesk program too.
    nice -n 19 cmake --build "$dir" -j "${SANITIZE_JOBS:-2}" --target mirrordesk "${targets[@]}"
    echo "built in $((SECONDS - t))s"
    t=$SECONDS
    start_brokers "$dir"
    log "tsan: engine tests"
    local rc=0
    run_ctest "$dir" -R "$regex" || rc=$?
    stop_brokers
    echo "tsan: tests ran in $((SECONDS - t))s, rc=$rc"
    return "$rc"
}

case "${1:-}" in
asan) run_asan ;;
tsan) run_tsan ;;
all)
    rc=0
    run_asan || rc=$?
    run_tsan || rc=$?
    exit "$rc"
    ;;
*) sed -n '2,26p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
