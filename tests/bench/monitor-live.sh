#!/usr/bin/env bash
# A live job monitor under a full-speed mirror job (issue 5): runs bench_monitor_live.
#
#   tests/bench/monitor-live.sh [--records N] [--size BYTES] [--partitions P] [--rounds R]
#                               [--xvfb] [--build DIR] [-- BENCH_OPTIONS...]
#
# Starts its own source and target harness brokers (private state dir, stopped and removed on
# exit; JVM settings as mm2-compare.sh uses, so the broker is not the narrowest pipe), preloads
# the source with bench_kafka (default 1,000,000 records of 200 bytes over 12 partitions),
# then runs bench_monitor_live against them: per round a headless copy and a copy with the
# GUI's window and job monitor shown (see the bench's header for the method). Offscreen Qt
# by default; --xvfb runs it on the xcb platform under xvfb-run (a real X server, so the
# window is painted and flushed as on a desktop). Prints the load average before and after.
# Options after -- go to the bench (e.g. --chart partitions, --no-panes, --probe-ms 1).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
BUILD="${MIRRORDESK_BUILD:-$ROOT/build-bench}"
RECORDS=1000000
SIZE=200
PARTITIONS=12
ROUNDS=2
XVFB=""
EXTRA=()

die() { printf 'monitor-live: error: %s\n' "$*" >&2; exit 1; }
log() { printf '[%(%H:%M:%S)T] %s\n' -1 "$*" >&2; }

while (($#)); do
    case "$1" in
        --records) RECORDS="$2"; shift ;;
        --size) SIZE="$2"; shift ;;
        --partitions) PARTITIONS="$2"; shift ;;
        --rounds) ROUNDS="$2"; shift ;;
        --xvfb) XVFB=1 ;;
        --build) BUILD="$2"; shift ;;
        --) shift; EXTRA=("$@"); break ;;
        -h|--help) sed -n '2,15p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown option '$1' (see --help)" ;;
    esac
    shift
done
for v in RECORDS SIZE PARTITIONS ROUNDS; do
    [[ "${!v}" =~ ^[0-9]+$ && "${!v}" -gt 0 ]] || die "${v,,} must be a positive integer, got '${!v}'"
done
(( SIZE >= 8 )) || die "size must be at least 8 bytes (bench_kafka embeds the send time)"

BK="$BUILD/tests/bench/bench_kafka"
BM="$BUILD/tests/bench/bench_monitor_live"
[[ -x "$BK" ]] || die "$BK not built (cmake --build $BUILD --target bench_kafka bench_monitor_live)"
[[ -x "$BM" ]] || die "$BM not built (cmake --build $BUILD --target bench_monitor_live)"
if [[ -n "$XVFB" ]]; then
    command -v xvfb-run >/dev/null || die "xvfb-run not found (apt-get install xvfb)"
fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/mirrordesk-monitorlive.XXXXXX")"
export MIRRORDESK_KAFKA_STATE="${MIRRORDESK_KAFKA_STATE:-$WORK/kafka}"
export MIRRORDESK_KAFKA_JAVA_OPTS="${MIRRORDESK_BENCH_BROKER_OPTS:--Xms1g -Xmx1g -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -Djava.awt.headless=true}"
HARNESS="$ROOT/tests/kafka/harness.sh"

cleanup() {
    bash "$HARNESS" stop-all >/dev/null 2>&1 || true
    rm -rf "$WORK"
    [[ "$MIRRORDESK_KAFKA_STATE" == "$WORK/kafka" ]] || rm -rf "$MIRRORDESK_KAFKA_STATE"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log "starting source and target brokers (state $MIRRORDESK_KAFKA_STATE)"
bash "$HARNESS" fetch >/dev/null
bash "$HARNESS" start source >"$WORK/harness-source.log" 2>&1 &
hs=$!
bash "$HARNESS" start target >"$WORK/harness-target.log" 2>&1 &
ht=$!
wait $hs || { cat "$WORK/harness-source.log" >&2; die "source broker did not start"; }
wait $ht || { cat "$WORK/harness-target.log" >&2; die "target broker did not start"; }
SRC="$(bash "$HARNESS" bootstrap source)"
TGT="$(bash "$HARNESS" bootstrap target)"
log "source $SRC, target $TGT; loading $RECORDS records of $SIZE bytes over $PARTITIONS partitions"
"$BK" create "$SRC" bench "$PARTITIONS" >/dev/null
"$BK" load "$SRC" bench --records "$RECORDS" --size "$SIZE" | tail -n1 >&2

printf 'load average before: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
CMD=("$BM" --source "$SRC" --target "$TGT" --topic bench --records "$RECORDS" --rounds "$ROUNDS" "${EXTRA[@]}")
rc=0
if [[ -n "$XVFB" ]]; then
    QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1920x1080x24" "${CMD[@]}" || rc=$?
else
    QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}" "${CMD[@]}" || rc=$?
fi
printf 'load average after: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
exit "$rc"
