#!/usr/bin/env bash
# Chaos soak on real three-node clusters (issue 40).
#
#   tests/bench/chaos-soak.sh [--minutes M] [--delivery at-least-once|exactly-once|both]
#                             [--seed N] [--build DIR] [--out FILE] [--keep-state]
#
# Starts its own three-node source and target clusters (tests/kafka/harness.sh
# start-cluster3, a private state dir, stopped on exit) and runs the fault lane's
# chaos case (tests/integration/tst_cluster3_faults.cpp, chaos) for M minutes
# (default 20) per delivery (default both): Kafka's VerifiableProducer writes 300
# records/s, a MirrorJob copies, and random faults follow one another on either
# side, each waited out before the next (a partition leader killed -9, with or
# without the mirror crashing with it; the group coordinator killed -9; the
# partitions reassigned off their leaders and back; a node restarted; the mirror
# crashed alone). Then ConsoleConsumer (read_committed) judges the target: every
# acknowledged record there, none lost, and for exactly-once each exactly once.
# The seed is printed; --seed replays a run. CI runs the same case for 150 s
# (integration/tst_cluster3_chaos).
# Writes the faults, their times and the judgement to FILE (default
# chaos-soak-<time>.log in the current directory), the whole output to
# FILE.full and, when a run failed, the nodes' last log lines to FILE.nodes;
# exits 0 when every run passed. --keep-state keeps a failed run's brokers' data
# (FILE.state, stopped) for Kafka's kafka.tools.DumpLogSegments (docs/RELIABILITY.md).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
BUILD="${MIRRORDESK_BUILD:-$ROOT/build-ci}"
MINUTES=20
DELIVERY=both
SEED=""
OUT=""
KEEP=0

BENCH_NAME=chaos-soak
# shellcheck source=lib.sh
source "$HERE/lib.sh"

while (($#)); do
    case "$1" in
        --minutes) MINUTES="$2"; shift ;;
        --delivery) DELIVERY="$2"; shift ;;
        --seed) SEED="$2"; shift ;;
        --build) BUILD="$2"; shift ;;
        --out) OUT="$2"; shift ;;
        --keep-state) KEEP=1 ;;
        -h|--help) usage; exit 0 ;;
        *) die "unknown argument $1 (--help lists them)" ;;
    esac
    shift
done
require_positive MINUTES
case "$DELIVERY" in
    at-least-once|exactly-once) ROWS=("chaos:$DELIVERY") ;;
    both) ROWS=("chaos:at-least-once" "chaos:exactly-once") ;;
    *) die "--delivery must be at-least-once, exactly-once or both, got '$DELIVERY'" ;;
esac
TEST="$BUILD/tests/integration_tst_cluster3_faults"
[[ -x "$TEST" ]] || die "$TEST is missing: build it (cmake --build $BUILD --target integration_tst_cluster3_faults)"
OUT="${OUT:-$PWD/chaos-soak-$(date +%Y%m%d-%H%M%S).log}"

STATE="$(mktemp -d)"
export MIRRORDESK_KAFKA_STATE="$STATE/kafka" MIRRORDESK_KAFKA_PORTS="${MIRRORDESK_KAFKA_PORTS:-16000-16767}"
cleanup() {
    bash "$ROOT/tests/kafka/harness.sh" stop-all >/dev/null 2>&1 || true
    # What the nodes logged, kept when a run failed (the state dir goes).
    if ((status != 0)); then
        local log
        for log in "$STATE"/kafka/*/logs/server.log; do
            [[ -f "$log" ]] || continue
            printf '\n=== %s\n' "$(basename "$(dirname "$(dirname "$log")")")" >>"$OUT.nodes"
            tail -n 300 "$log" >>"$OUT.nodes"
        done
        [[ -f "$OUT.nodes" ]] && log "the nodes' last log lines are in $OUT.nodes"
        if ((KEEP)); then
            rm -rf "$OUT.state" && mv "$STATE/kafka" "$OUT.state" && log "the brokers' data is in $OUT.state"
        fi
    fi
    rm -rf "$STATE"
}
status=0
trap cleanup EXIT
log "starting the three-node clusters (state in $STATE)"
bash "$ROOT/tests/kafka/harness.sh" start-cluster3 source3 target3 >&2

export MIRRORDESK_CHAOS_SECONDS=$((MINUTES * 60))
[[ -n "$SEED" ]] && export MIRRORDESK_CHAOS_SEED="$SEED"
# Each row's limit (and QtTest's): the soak, the producer's tail and the judgement.
export QTEST_FUNCTION_TIMEOUT=$(((MINUTES * 60 + 900) * 1000))
export MIRRORDESK_TEST_ROW_TIMEOUT=$QTEST_FUNCTION_TIMEOUT
: > "$OUT"
: > "$OUT.full"
for row in "${ROWS[@]}"; do
    log "$row for $MINUTES minutes"
    # Everything to $OUT.full; the test's own lines (faults, judgement) to $OUT.
    "$TEST" "$row" 2>&1 | tee -a "$OUT.full" | grep --line-buffered -E '^(PASS|FAIL|QINFO|SKIP|   Loc)' | tee -a "$OUT" >&2 || true
    grep -q "^PASS   : .*(${row#chaos:})" "$OUT" || status=1
done
log "results in $OUT (the whole output in $OUT.full)"
exit "$status"
