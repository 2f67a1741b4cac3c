#!/usr/bin/env bash
# How an exactly-once job's offset map grows over time (issue 40).
#
#   tests/bench/offset-map-growth.sh [--minutes M] [--rate R] [--partitions P] [--build DIR]
#                                    [--out FILE]
#
# Own source and target brokers (tests/kafka/harness.sh, private state dir, stopped on
# exit). bench_kafka load writes R records/s (default 2,000 of 100 bytes) over P partitions
# (default 6) for M minutes (default 60) while `mirrordesk run PROFILE` copies them
# exactly-once with the default transactions (100 ms). Then the job stops cleanly and the
# map topic is measured: records written (its high watermark), keys kept (what compaction
# leaves), bytes on the target's disk, and how long reading it whole takes (`mirrordesk
# failover --dry-run`, which reads the map before anything else, as group sync's first pass
# and a failover do). The commits are counted from the markers on the target (its high
# watermarks minus the records). Prints the figures and writes them to FILE (default
# offset-map-growth-<time>.txt in the current directory).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
BUILD="${MIRRORDESK_BUILD:-$ROOT/build-ci}"
MINUTES=60
RATE=2000
PARTITIONS=6
SIZE=100
OUT=""

BENCH_NAME=offset-map-growth
# shellcheck source=lib.sh
source "$HERE/lib.sh"

while (($#)); do
    case "$1" in
        --minutes) MINUTES="$2"; shift ;;
        --rate) RATE="$2"; shift ;;
        --partitions) PARTITIONS="$2"; shift ;;
        --build) BUILD="$2"; shift ;;
        --out) OUT="$2"; shift ;;
        -h|--help) usage; exit 0 ;;
        *) die "unknown argument $1 (--help lists them)" ;;
    esac
    shift
done
require_positive MINUTES RATE PARTITIONS
require_md_and_bk
require_time_and_java
OUT="${OUT:-$PWD/offset-map-growth-$(date +%Y%m%d-%H%M%S).txt}"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/mirrordesk-mapgrowth.XXXXXX")"
export MIRRORDESK_KAFKA_STATE="$WORK/kafka"
BENCH_BROKER_OPTS="${MIRRORDESK_BENCH_BROKER_OPTS:--Xms512m -Xmx512m -XX:+UseG1GC -Djava.awt.headless=true}"
MD_PID=""
LOAD_PID=""
cleanup() {
    [[ -n "$LOAD_PID" ]] && kill "$LOAD_PID" 2>/dev/null || true
    [[ -n "$MD_PID" ]] && kill -9 "$MD_PID" 2>/dev/null || true
    stop_brokers
    remove_work
}
trap cleanup EXIT

mkdir -p "$WORK/logs"
log "starting brokers in $WORK"
start_brokers "$WORK/logs"
TOPIC=mapgrowth
GROUP=mapgrowth-job
MAP="mirrordesk.$GROUP.offset-map"
"$BK" create "$SRC" "$TOPIC" "$PARTITIONS" >/dev/null
PROFILE="$WORK/mapgrowth.mirrorjob"
cat >"$PROFILE" <<JSON
{
 "mirrordesk": 1,
 "name": "mapgrowth",
 "groupId": "$GROUP",
 "source": {"alias": "src", "bootstrap": "$SRC"},
 "target": {"alias": "dst", "bootstrap": "$TGT"},
 "topics": {"include": ["$TOPIC"]},
 "start": "earliest",
 "delivery": "exactly-once"
}
JSON

SECONDS_TOTAL=$((MINUTES * 60))
RECORDS=$((RATE * SECONDS_TOTAL))
log "copying exactly-once while $RATE records/s arrive for $MINUTES min ($RECORDS records, $PARTITIONS partitions)"
"$MD" run "$PROFILE" >"$WORK/logs/run.log" 2>&1 &
MD_PID=$!
"$BK" load "$SRC" "$TOPIC" --records "$RECORDS" --size "$SIZE" --rate "$RATE" >"$WORK/logs/load.log" 2>&1 &
LOAD_PID=$!
wait "$LOAD_PID" || die "the load failed: $(tail -n 5 "$WORK/logs/load.log")"
LOAD_PID=""
log "load done; waiting for the target to hold every record"
"$BK" watch "$TGT" "src.$TOPIC" --records "$RECORDS" --committed 1 --timeout 600 >"$WORK/logs/watch.log" 2>&1 ||
    die "the target did not reach $RECORDS committed records: $(tail -n 5 "$WORK/logs/watch.log")"
kill -TERM "$MD_PID"
wait "$MD_PID" || die "the job did not stop cleanly: $(tail -n 20 "$WORK/logs/run.log")"
MD_PID=""

tool() { java -Xmx256m -cp "$KAFKA_LIBS/*" -Dlog4j2.configurationFile="$ROOT/tests/kafka/log4j2.properties" "$@"; }
# The sum of a topic's high watermarks (records, markers and aborted records stored).
hw_sum() {
    tool org.apache.kafka.tools.GetOffsetShell --bootstrap-server "$TGT" --topic "$1" --time -1 2>/dev/null |
        awk -F: '{ s += $3 } END { print s + 0 }'
}
TARGET_END=$(hw_sum "src.$TOPIC")
MAP_WRITTEN=$(hw_sum "$MAP")
# The map's committed records as key|value lines: the last value of each key is what
# compaction keeps.
tool org.apache.kafka.tools.consumer.ConsoleConsumer --bootstrap-server "$TGT" --topic "$MAP" --from-beginning \
    --isolation-level read_committed --timeout-ms 15000 --property print.key=true --property key.separator='|' \
    >"$WORK/map.txt" 2>/dev/null || true
read -r MAP_COMMITTED MAP_KEYS MAP_KEPT_BYTES MAP_STEPS <<<"$(awk -F'|' '
    { n++; last[$1] = $2 }
    END { for (k in last) { keys++; bytes += length(k) + length(last[k]); f = split(last[k], v, " ");
                            if (f == 7) steps += split(v[7], s, ",") }
          print n + 0, keys + 0, bytes + 0, steps + 0 }' "$WORK/map.txt")"
# The log segments only (a partition's index files are preallocated).
MAP_DISK=$(find "$MIRRORDESK_KAFKA_STATE/target/data/$MAP-0" -name '*.log' -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
COMMITS=$(( (TARGET_END - RECORDS) / PARTITIONS ))
# The whole map read, as a failover or group sync's first pass does it.
START_MS=$(now_ms)
"$MD" failover "$PROFILE" --groups 'mapgrowth-nobody' --dry-run >"$WORK/logs/failover.log" 2>&1 || true
READ_MS=$(( $(now_ms) - START_MS ))
FAILOVER_SAID="$(head -n 3 "$WORK/logs/failover.log" | tr '\n' ' ' | head -c 300)"

{
    echo "offset map of an exactly-once job: $MINUTES min at $RATE records/s over $PARTITIONS partitions ($RECORDS records)"
    echo "commits per partition (markers on the target): $COMMITS"
    echo "map records written: $MAP_WRITTEN (committed: $MAP_COMMITTED)"
    echo "map keys kept after compaction: $MAP_KEYS ($(( MAP_KEYS / PARTITIONS )) a partition; steps in them: $MAP_STEPS)"
    echo "map bytes: $MAP_DISK on disk before compaction, $MAP_KEPT_BYTES in the records compaction keeps"
    echo "whole map read (mirrordesk failover --dry-run, wall): $READ_MS ms; it said: $FAILOVER_SAID"
} | tee "$OUT"
