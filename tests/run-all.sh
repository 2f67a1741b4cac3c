#!/usr/bin/env bash
# The whole test run, from a fresh Debian 12 checkout to a verdict:
#   1. system packages (installer/deps.sh, only what is missing)
#   2. formatting: every .cpp/.h as .clang-format says (tests/check-format.sh),
#      and every include within its layer (tests/check-layers.sh)
#   3. Apache Kafka jars and Apicurio Registry (tests/kafka/harness.sh fetch, once per cache)
#   4. configure + build the `ci` preset (build-ci/, warnings are errors)
#   5. fuzz: the libFuzzer targets built with clang in build-fuzz/ and run
#      briefly from their seed corpora (tests/fuzz/run.sh)
#   6. ctest: unit, gui and integration tests; the `kafka` fixture starts the
#      real brokers before the integration tests and stops them after, and the
#      `kafka2` fixture a second source/target pair on which the longest tests
#      run beside the others, and the `kafka3` fixture two three-node clusters
#      (replication factor 3, an authorizer, SASL users) for the fault lane
#      (label cluster3); tests/CMakeLists.txt lists them.
# Exits with ctest's code. Brokers are stopped even when interrupted.
#
#   bash tests/run-all.sh
# Env: MIRRORDESK_CTEST_ARGS   extra ctest arguments (e.g. "-L unit" or "-R harness")
#      MIRRORDESK_CTEST_TIMEOUT  overall ctest limit in seconds (default 3600)
#      MIRRORDESK_FUZZ_SECONDS   seconds per fuzz target (default 10; 0 skips the fuzz step)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
BUILD_DIR="$ROOT/build-ci"
RUN_START=$SECONDS

phase() { printf '\n=== run-all: %s\n' "$*"; }
elapsed() { printf '%ds' $((SECONDS - $1)); }

kafka_state() {
    local state=""
    if [[ -f "$BUILD_DIR/CMakeCache.txt" ]]; then
        state="$(sed -n 's/^MIRRORDESK_KAFKA_STATE:[A-Z]*=//p' "$BUILD_DIR/CMakeCache.txt")"
    fi
    printf '%s' "${state:-$BUILD_DIR/kafka-state}"
}

cleanup() {
    local rc=$?
    trap - EXIT INT TERM
    # Brokers run detached from ctest (setsid): an interrupted or timed-out run
    # would otherwise leave three JVMs behind.
    local state
    for state in "$(kafka_state)" "$(kafka_state)-lane2" "$(kafka_state)-cluster3"; do
        if [[ -d "$state" ]]; then
            MIRRORDESK_KAFKA_STATE="$state" bash "$ROOT/tests/kafka/harness.sh" stop-all >/dev/null 2>&1 || true
        fi
    done
    exit "$rc"
}
CTEST_PID=""
on_signal() {
    echo "run-all: interrupted" >&2
    if [[ -n "$CTEST_PID" ]]; then
        kill -TERM "$CTEST_PID" 2>/dev/null || true
        wait "$CTEST_PID" 2>/dev/null || true
    fi
    exit 130
}
trap cleanup EXIT
trap on_signal INT TERM

t=$SECONDS
phase "system packages (installer/deps.sh)"
bash "$ROOT/installer/deps.sh"
echo "packages ok ($(elapsed $t))"

t=$SECONDS
phase "formatting (tests/check-format.sh)"
if ! bash "$ROOT/tests/check-format.sh"; then
    echo "run-all: FAILED: formatting (bash tests/check-format.sh --fix formats the files listed above)"
    exit 1
fi
echo "formatting ok ($(elapsed $t))"

t=$SECONDS
phase "layers (tests/check-layers.sh)"
if ! bash "$ROOT/tests/check-layers.sh"; then
    echo "run-all: FAILED: layers (an include above points up, skips a layer or names no folder)"
    exit 1
fi
echo "layers ok ($(elapsed $t))"

t=$SECONDS
phase "Apache Kafka jars and Apicurio Registry (tests/kafka/harness.sh fetch)"
bash "$ROOT/tests/kafka/harness.sh" fetch
echo "jars ok ($(elapsed $t))"

t=$SECONDS
phase "configure (cmake --preset ci)"
cmake --preset ci >"$ROOT/build-ci.configure.log" 2>&1 || {
    cat "$ROOT/build-ci.configure.log"
    echo "run-all: FAILED: configure (cmake --preset ci)"
    exit 1
}
mv "$ROOT/build-ci.configure.log" "$BUILD_DIR/configure.log"
echo "configured ($(elapsed $t))"

t=$SECONDS
phase "build (cmake --build --preset ci -j 2)"
if ! cmake --build --preset ci -j 2; then
    echo "run-all: FAILED: build (see the compiler output above)"
    exit 1
fi
echo "built ($(elapsed $t))"

t=$SECONDS
fuzz_seconds="${MIRRORDESK_FUZZ_SECONDS:-10}"
if (( fuzz_seconds > 0 )); then
    phase "fuzz (tests/fuzz/run.sh $fuzz_seconds)"
    if ! bash "$ROOT/tests/fuzz/run.sh" "$fuzz_seconds"; then
        echo "run-all: FAILED: fuzz (its build failed, see build-fuzz/build.log, or a target crashed, its input in build-fuzz/artifacts/)"
        exit 1
    fi
    echo "fuzzed ($(elapsed $t))"
fi

t=$SECONDS
phase "tests (ctest -j3: the broker lanes, the three-node fault lane, the unit and gui tests)"
# No broker may be left from an earlier, killed run of this tree.
for state in "$(kafka_state)" "$(kafka_state)-lane2" "$(kafka_state)-cluster3"; do
    MIRRORDESK_KAFKA_STATE="$state" bash "$ROOT/tests/kafka/harness.sh" stop-all >/dev/null 2>&1 || true
done
ctest_rc=0
# In the background and waited for, so that INT/TERM reach this script at once
# (bash defers traps while a foreground command runs). timeout puts ctest in
# its own process group; signalling timeout takes down ctest and its tests.
# shellcheck disable=SC2086  # extra args are words on purpose
timeout --signal=TERM --kill-after=60 "${MIRRORDESK_CTEST_TIMEOUT:-3600}" \
    ctest --test-dir "$BUILD_DIR" --output-on-failure -j3 --timeout 600 \
    --output-log "$BUILD_DIR/ctest.log" ${MIRRORDESK_CTEST_ARGS:-} &
CTEST_PID=$!
wait "$CTEST_PID" || ctest_rc=$?
CTEST_PID=""
echo "tests ran ($(elapsed $t))"

summary="$(grep -E '^[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' "$BUILD_DIR/ctest.log" | tail -1 || true)"
if [[ -n "$summary" ]]; then
    total="$(sed -E 's/.* out of ([0-9]+).*/\1/' <<<"$summary")"
    failed="$(sed -E 's/.*, ([0-9]+) tests? failed.*/\1/' <<<"$summary")"
    echo
    echo "run-all: ctest exit $ctest_rc after $(elapsed $RUN_START) in total"
    echo "run-all: $((total - failed)) passed, $failed failed"
else
    (( ctest_rc != 0 )) || ctest_rc=1 # no summary: ctest did not finish its run
    echo
    echo "run-all: FAILED: ctest gave no summary (exit $ctest_rc, timeout ${MIRRORDESK_CTEST_TIMEOUT:-3600}s?) after $(elapsed $RUN_START)"
fi
exit "$ctest_rc"
