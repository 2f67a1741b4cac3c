#!/usr/bin/env bash
# Group offset sync at scale on the bench brokers (issue 14): runs bench_groupsync scale.
#
#   tests/bench/groupsync-scale.sh [--groups G] [--partitions P] [--repeat R] [--build DIR]
#                                  [--out FILE] [--levers] [--no-scale]
#
# Starts its own source and target harness brokers (private state dir, stopped and removed on
# exit; full JIT and 1 GB heap as mm2-compare.sh runs them, not the test harness's C1-only
# setting), warms them up with one discarded round of 100 groups, then per repeat (default
# 3) seeds G source groups (default 1,000) with offsets on P partitions (default 100),
# and times planGroupSync, the first applyGroupSync (every offset written) and a no-op pass
# (plan + apply finding everything there). Broker CPU seconds per phase come from
# /proc/PID/stat of the two broker JVMs. Prints the RESULT lines and the load average;
# --out FILE keeps them.
# --levers: then, per repeat and in turn, the first write's raw AlterConsumerGroupOffsets
# into the target (bench_groupsync commit-rate) with 1 connection and 64 or 256 requests in
# flight, and with 4 and 8 connections: what a wider window or more admin connections
# would buy. --no-scale runs only those.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
BUILD="${MIRRORDESK_BUILD:-$ROOT/build-bench}"
GROUPS_N=1000
PARTITIONS=100
REPEAT=3
OUT=""
LEVERS=0
SCALE=1

BENCH_NAME=groupsync-scale
# shellcheck source=lib.sh
source "$HERE/lib.sh"

while (($#)); do
    case "$1" in
        --groups) GROUPS_N="$2"; shift ;;
        --partitions) PARTITIONS="$2"; shift ;;
        --repeat) REPEAT="$2"; shift ;;
        --build) BUILD="$2"; shift ;;
        --out) OUT="$2"; shift ;;
        --levers) LEVERS=1 ;;
        --no-scale) SCALE=0 ;;
        -h|--help) usage; exit 0 ;;
        *) die "unknown option '$1' (see --help)" ;;
    esac
    shift
done
require_positive GROUPS_N PARTITIONS REPEAT

BG="$BUILD/tests/bench/bench_groupsync"
[[ -x "$BG" ]] || die "$BG not built (cmake --build $BUILD --target bench_groupsync)"
command -v java >/dev/null || die "java not found"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/mirrordesk-bench.XXXXXX")"
export MIRRORDESK_KAFKA_STATE="$WORK/kafka"
cleanup() {
    stop_brokers
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log "work dir $WORK; starting brokers"
start_brokers "$WORK"
PIDS="$(cat "$MIRRORDESK_KAFKA_STATE/source/pid"),$(cat "$MIRRORDESK_KAFKA_STATE/target/pid")"
log "source $SRC, target $TGT (broker pids $PIDS)"
log "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

log "warm-up round (100 groups x $PARTITIONS partitions, discarded)"
"$BG" scale "$SRC" "$TGT" --groups 100 --partitions "$PARTITIONS" --repeat 1 >/dev/null

: >"$WORK/results.txt"
if ((SCALE)); then
    log "$REPEAT rounds of $GROUPS_N groups x $PARTITIONS partitions"
    "$BG" scale "$SRC" "$TGT" --groups "$GROUPS_N" --partitions "$PARTITIONS" --repeat "$REPEAT" --cpu-pids "$PIDS" \
        | tee -a "$WORK/results.txt"
fi
if ((LEVERS)); then
    log "levers of the first write: connections x requests in flight, $REPEAT rounds"
    for ((r = 1; r <= REPEAT; r++)); do
        for cw in 1:64 1:256 4:64 8:32; do
            "$BG" commit-rate "$TGT" --groups "$GROUPS_N" --partitions "$PARTITIONS" --clients "${cw%:*}" \
                --window "${cw#*:}" --cpu-pids "${PIDS#*,}" | tee -a "$WORK/results.txt"
        done
    done
fi
log "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
[[ -z "$OUT" ]] || cp "$WORK/results.txt" "$OUT"
