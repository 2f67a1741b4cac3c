#!/usr/bin/env bash
# Soak run of the MirrorDesk engine (issue 7).
#
#   tests/bench/soak.sh [--minutes M] [--rate R] [--size BYTES] [--partitions P] [--build DIR]
#                       [--out DIR] [--md-consumer-props JSON] [--md-producer-props JSON]
#
# Own source and target brokers (tests/kafka/harness.sh, private state dir, stopped on
# exit). `mirrordesk run PROFILE` mirrors continuously while a producer writes R records/s
# (default 5,000 of 200 bytes over 12 partitions) for M minutes (default 30). The mirror's
# resident memory (VmRSS) is sampled every 5 s. Warm-up is the first fifth of the run
# (at least 60 s). At the end the producer stops, the mirror catches up and stops
# gracefully, and `mirrordesk verify PROFILE` compares source and target.
# Passes (exit 0) when the RSS at the end is within 5% of the RSS after warm-up and
# verify agrees. The RSS samples are written next to the summary (--out DIR keeps them).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
BUILD="${MIRRORDESK_BUILD:-$ROOT/build-bench}"
MINUTES=30
RATE=5000
SIZE=200
PARTITIONS=12
OUTDIR=""
MD_CONSUMER_PROPS="{}"
MD_PRODUCER_PROPS="{}"

BENCH_NAME=soak
# shellcheck source=lib.sh
source "$HERE/lib.sh"

while (($#)); do
    case "$1" in
        --minutes) MINUTES="$2"; shift ;;
        --rate) RATE="$2"; shift ;;
        --size) SIZE="$2"; shift ;;
        --partitions) PARTITIONS="$2"; shift ;;
        --build) BUILD="$2"; shift ;;
        --out) OUTDIR="$2"; shift ;;
        --md-consumer-props) MD_CONSUMER_PROPS="$2"; shift ;;
        --md-producer-props) MD_PRODUCER_PROPS="$2"; shift ;;
        -h|--help) usage; exit 0 ;;
        *) die "unknown option '$1' (see --help)" ;;
    esac
    shift
done
require_positive MINUTES RATE SIZE PARTITIONS
(( SIZE >= 8 )) || die "size must be at least 8 bytes"

MD="$BUILD/app/mirrordesk"
BK="$BUILD/tests/bench/bench_kafka"
[[ -x "$MD" && -x "$BK" ]] || die "build mirrordesk and bench_kafka in $BUILD first"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/mirrordesk-soak.XXXXXX")"
export MIRRORDESK_KAFKA_STATE="$WORK/kafka"
# A moderate rate needs no more than half a gigabyte of broker heap.
BENCH_BROKER_OPTS="${MIRRORDESK_BENCH_BROKER_OPTS:--Xms512m -Xmx512m -XX:+UseG1GC -Djava.awt.headless=true}"
MD_PID=""
LOAD_PID=""

cleanup() {
    [[ -n "$LOAD_PID" ]] && kill "$LOAD_PID" 2>/dev/null || true
    if [[ -n "$MD_PID" ]] && kill -0 "$MD_PID" 2>/dev/null; then
        kill -TERM "$MD_PID" 2>/dev/null || true
        wait "$MD_PID" 2>/dev/null || true
    fi
    stop_brokers
    if [[ -n "$OUTDIR" ]]; then
        mkdir -p "$OUTDIR"
        cp "$WORK"/rss.tsv "$WORK"/summary.txt "$WORK"/md.log "$WORK"/verify.log "$OUTDIR"/ 2>/dev/null || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log "work dir $WORK; starting brokers"
start_brokers "$WORK"

"$BK" create "$SRC" soak "$PARTITIONS" >/dev/null
cat >"$WORK/soak.mirrorjob" <<EOF
{
  "mirrordesk": 1,
  "name": "soak",
  "source": { "alias": "src", "bootstrap": "$SRC", "security": "plaintext", "consumerProperties": $MD_CONSUMER_PROPS },
  "target": { "alias": "tgt", "bootstrap": "$TGT", "security": "plaintext", "producerProperties": $MD_PRODUCER_PROPS },
  "topics": { "include": ["soak"] },
  "naming": { "policy": "prefix", "separator": "." },
  "start": "earliest"
}
EOF

"$MD" run "$WORK/soak.mirrorjob" >"$WORK/md.log" 2>&1 &
MD_PID=$!
TOTAL=$((RATE * MINUTES * 60))
"$BK" load "$SRC" soak --records "$TOTAL" --size "$SIZE" --rate "$RATE" >"$WORK/load.out" &
LOAD_PID=$!
log "mirroring $RATE records/s for $MINUTES min ($TOTAL records), sampling RSS every 5 s"

rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }
WARMUP_S=$((MINUTES * 60 / 5))
((WARMUP_S < 60)) && WARMUP_S=60
START=$SECONDS
WARM_RSS=""
printf 'seconds\trss_kb\n' >"$WORK/rss.tsv"
while kill -0 "$LOAD_PID" 2>/dev/null; do
    kill -0 "$MD_PID" 2>/dev/null || { tail -n 30 "$WORK/md.log" >&2; die "mirrordesk exited during the soak"; }
    t=$((SECONDS - START))
    rss=$(rss_kb "$MD_PID")
    printf '%d\t%d\n' "$t" "$rss" >>"$WORK/rss.tsv"
    if [[ -z "$WARM_RSS" ]] && ((t >= WARMUP_S)); then
        WARM_RSS=$rss
        log "after warm-up (${t}s): RSS $((rss / 1024)) MB"
    fi
    sleep 5
done
wait "$LOAD_PID" || die "the producer failed"
LOAD_PID=""
FINAL_RSS=$(rss_kb "$MD_PID")
PEAK_RSS=$(awk '/^VmHWM:/ {print $2}' "/proc/$MD_PID/status")
printf '%d\t%d\n' "$((SECONDS - START))" "$FINAL_RSS" >>"$WORK/rss.tsv"
[[ -n "$WARM_RSS" ]] || die "the run ended before warm-up (use more minutes)"

log "producer done; waiting for the mirror to catch up"
"$BK" watch "$TGT" src.soak --records "$TOTAL" --timeout 300 >/dev/null || die "the target never received all $TOTAL records"
sleep 2 # one commit interval: the group's offsets reach the end
kill -TERM "$MD_PID"
wait "$MD_PID" || true
MD_PID=""
VERIFY_OK=0
if "$MD" verify "$WORK/soak.mirrorjob" >"$WORK/verify.log" 2>&1; then VERIFY_OK=1; fi

DRIFT=$(awk -v a="$FINAL_RSS" -v b="$WARM_RSS" 'BEGIN{printf "%.2f", (a-b)*100/b}')
RSS_OK=$(awk -v d="$DRIFT" 'BEGIN{print (d <= 5 && d >= -5) ? 1 : 0}')
{
    echo "soak: $MINUTES min at $RATE records/s of $SIZE bytes over $PARTITIONS partitions ($TOTAL records)"
    echo "RSS after warm-up (${WARMUP_S}s): $((WARM_RSS / 1024)) MB; at the end: $((FINAL_RSS / 1024)) MB; drift $DRIFT% (limit 5%); peak $((PEAK_RSS / 1024)) MB"
    echo "verify: $([[ $VERIFY_OK == 1 ]] && echo agrees || echo DISAGREES) ($(tail -n1 "$WORK/verify.log"))"
    if [[ $RSS_OK == 1 && $VERIFY_OK == 1 ]]; then echo "PASS"; else echo "FAIL"; fi
} | tee "$WORK/summary.txt"
[[ $RSS_OK == 1 && $VERIFY_OK == 1 ]]
