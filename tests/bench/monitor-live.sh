#!/usr/bin/env bash
# A live job monitor under a full-speed mirror job (issue 5), or J jobs at once, each with
# its monitor open as a tab (issue 20): runs bench_monitor_live.
#
#   tests/bench/monitor-live.sh [--records N] [--size BYTES] [--partitions P] [--jobs J]
#                               [--rounds R] [--xvfb] [--broker-nice N] [--build DIR]
#                               [-- BENCH_OPTIONS...]
#
# Starts its own source and target harness brokers (private state dir, stopped and removed on
# exit; JVM settings as mm2-compare.sh uses, so the broker is not the narrowest pipe), preloads
# the source with bench_kafka (default 3,000,000 records of 200 bytes over 12 partitions, so a
# round at full speed lasts long enough that the window's first paint is not its p99),
# then runs bench_monitor_live against them: per round a headless copy and a copy with the
# GUI's window and job monitor shown (see the bench's header for the method). With --jobs J
# (default 1) it loads J topics bench-1..bench-J of N records each (J x N in all) and the
# bench runs J jobs at once, one per topic. Offscreen Qt
# by default; --xvfb runs it on the xcb platform under xvfb-run (a real X server, so the
# window is painted and flushed as on a desktop). --broker-nice N renices every broker thread
# (10: as the jobs' threads, so the UI thread's lateness is its own work, not the brokers').
# Prints the load average before and after.
# Options after -- go to the bench (e.g. --chart partitions, --no-panes, --probe-ms 1).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
BUILD="${MIRRORDESK_BUILD:-$ROOT/build-bench}"
RECORDS=3000000
SIZE=200
PARTITIONS=12
ROUNDS=2
JOBS=1
XVFB=""
BROKER_NICE=""
EXTRA=()

BENCH_NAME=monitor-live
# shellcheck source=lib.sh
source "$HERE/lib.sh"

while (($#)); do
    case "$1" in
        --records) RECORDS="$2"; shift ;;
        --size) SIZE="$2"; shift ;;
        --partitions) PARTITIONS="$2"; shift ;;
        --rounds) ROUNDS="$2"; shift ;;
        --jobs) JOBS="$2"; shift ;;
        --xvfb) XVFB=1 ;;
        --broker-nice) BROKER_NICE="$2"; shift ;;
        --build) BUILD="$2"; shift ;;
        --) shift; EXTRA=("$@"); break ;;
        -h|--help) usage; exit 0 ;;
        *) die "unknown option '$1' (see --help)" ;;
    esac
    shift
done
require_positive RECORDS SIZE PARTITIONS ROUNDS JOBS
require_send_time_size

BK="$BUILD/tests/bench/bench_kafka"
BM="$BUILD/tests/bench/bench_monitor_live"
[[ -x "$BK" ]] || die "$BK not built (cmake --build $BUILD --target bench_kafka bench_monitor_live)"
[[ -x "$BM" ]] || die "$BM not built (cmake --build $BUILD --target bench_monitor_live)"
if [[ -n "$XVFB" ]]; then
    command -v xvfb-run >/dev/null || die "xvfb-run not found (apt-get install xvfb)"
fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/mirrordesk-monitorlive.XXXXXX")"
export MIRRORDESK_KAFKA_STATE="${MIRRORDESK_KAFKA_STATE:-$WORK/kafka}"

cleanup() {
    stop_brokers
    rm -rf "$WORK" # with the brokers' state, unless the caller gave its own (kept)
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log "starting source and target brokers (state $MIRRORDESK_KAFKA_STATE)"
start_brokers "$WORK"
if [[ -n "$BROKER_NICE" ]]; then
    renice_brokers "$BROKER_NICE"
    log "brokers' threads at niceness $BROKER_NICE (the jobs' run at +10, the UI thread at 0)"
fi
TOPICS=(bench)
((JOBS == 1)) || mapfile -t TOPICS < <(seq -f 'bench-%g' 1 "$JOBS")
log "source $SRC, target $TGT; loading ${#TOPICS[@]} topic(s) of $RECORDS records of $SIZE bytes over $PARTITIONS partitions"
for topic in "${TOPICS[@]}"; do
    "$BK" create "$SRC" "$topic" "$PARTITIONS" >/dev/null
    "$BK" load "$SRC" "$topic" --records "$RECORDS" --size "$SIZE" | tail -n1 >&2
done

printf 'load average before: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
CMD=("$BM" --source "$SRC" --target "$TGT" --topic bench --records "$RECORDS" --jobs "$JOBS" --rounds "$ROUNDS"
     "${EXTRA[@]}")
rc=0
if [[ -n "$XVFB" ]]; then
    QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1920x1080x24" "${CMD[@]}" || rc=$?
else
    QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}" "${CMD[@]}" || rc=$?
fi
printf 'load average after: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
exit "$rc"
