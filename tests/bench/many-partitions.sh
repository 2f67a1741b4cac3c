#!/usr/bin/env bash
# One job over many partitions against the same bytes over a few (issue 20).
#
#   tests/bench/many-partitions.sh [--records N] [--size BYTES] [--topics T] [--partitions P]
#                                  [--base-partitions B] [--repeat R] [--idle S] [--trickle RPS]
#                                  [--perf] [--copies-only] [--md-consumer-props JSON]
#                                  [--md-producer-props JSON] [--build DIR] [--out FILE]
#
# Starts its own source and target brokers (tests/kafka/harness.sh, private state dir,
# stopped on exit) and loads the same records (default 1,000,000 of 200 bytes) twice into
# the source: once into one topic of B partitions ("one", default 12) and once spread over
# T topics of P partitions ("many", default 200 x 10 = 2,000 partitions). Both brokers are
# warmed up by one discarded MirrorDesk copy of each. Then:
#   copies: per repeat (default 3), in alternating order, `mirrordesk run PROFILE
#     --until-caught-up` copies each into fresh target topics (a source alias per run), under
#     /usr/bin/time. Steady rate = 80% of the records over the time between 10% and 90% of
#     them landing (the target topics' end offsets summed every 100 ms by bench_kafka watch);
#     end to end = process start to the last record on the target; peak RSS, CPU seconds,
#     and the CPU seconds both broker JVMs spent meanwhile. Each run's target topics are
#     deleted once measured, except the last repeat's, which the upkeep runs reuse.
#   upkeep: the last repeat's job again, now without --until-caught-up: its group resumes at
#     the end, so there is nothing to copy and what it spends is the engine's upkeep (topic
#     refresh, config sync, commit rounds, metric samples, the consumer's empty fetches).
#     CPU of MirrorDesk and of the brokers over S seconds (default 60), measured from 15 s
#     after the start, for each kind with the profile's defaults ("idle"), with
#     "topicRefreshIntervalMs": 1000 ("refresh1s": 10 times the refreshes, so the difference
#     to "idle" is 0.9 refreshes a second) and with "samplingIntervalMs": 10 ("sample10ms":
#     100 metric snapshots a second instead of 4).
#   --md-consumer-props / --md-producer-props put librdkafka properties into every job's
#     profile (a tuning tried on both kinds without rebuilding); --copies-only skips the
#     upkeep and trickle runs.
#   trickle: the same job while a producer writes RPS records a second (default 4,000)
#     round-robin over all its source partitions, so every commit round (one a second)
#     commits every partition: the cost of commits and of fetching and producing a little
#     on each of 2,000 partitions, against the same records into B partitions.
#   for scale: the steady rate of the producer that loaded each kind (bench_kafka load, the
#     engine's producer settings), measured once before the copies.
#   --perf: after each measured upkeep window of the many-partition job, `perf record` (999 Hz,
#     DWARF call graphs) profiles it for 30 s more; the engine functions' share of its CPU
#     (perf report --children) goes to perf-many-VARIANT.txt beside --out (or the work dir).
# Prints a markdown table (medians over the repeats, min..max in brackets; upkeep runs once
# per kind) and writes it to --out when given (the raw results next to it as .tsv).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
BUILD="${MIRRORDESK_BUILD:-$ROOT/build-bench}"
RECORDS=1000000
SIZE=200
TOPICS=200
PARTITIONS=10
BASE_PARTITIONS=12
REPEAT=3
IDLE=60
TRICKLE=4000
OUT=""
PERF=0
COPIES_ONLY=0
MD_CONSUMER_PROPS="{}"
MD_PRODUCER_PROPS="{}"

BENCH_NAME=many-partitions
# shellcheck source=lib.sh
source "$HERE/lib.sh"

while (($#)); do
    case "$1" in
        --records) RECORDS="$2"; shift ;;
        --size) SIZE="$2"; shift ;;
        --topics) TOPICS="$2"; shift ;;
        --partitions) PARTITIONS="$2"; shift ;;
        --base-partitions) BASE_PARTITIONS="$2"; shift ;;
        --repeat) REPEAT="$2"; shift ;;
        --idle) IDLE="$2"; shift ;;
        --trickle) TRICKLE="$2"; shift ;;
        --perf) PERF=1 ;;
        --copies-only) COPIES_ONLY=1 ;;
        --md-consumer-props) MD_CONSUMER_PROPS="$2"; shift ;;
        --md-producer-props) MD_PRODUCER_PROPS="$2"; shift ;;
        --build) BUILD="$2"; shift ;;
        --out) OUT="$2"; shift ;;
        -h|--help) usage; exit 0 ;;
        *) die "unknown option '$1' (see --help)" ;;
    esac
    shift
done
require_positive RECORDS SIZE TOPICS PARTITIONS BASE_PARTITIONS REPEAT IDLE TRICKLE
require_send_time_size

require_md_and_bk
require_time_and_java
((PERF == 0)) || command -v perf >/dev/null || die "--perf needs perf (linux-perf)"

# Each broker keeps a file open per partition log (tests/bench/large-cluster.sh): the
# source holds both kinds, the target at most two copies of each at a time.
NEED_FILES=$(((2 * TOPICS * PARTITIONS + 2 * BASE_PARTITIONS) * 11 / 10 + 1500))
HARD_FILES="$(ulimit -Hn)"
if [[ "$HARD_FILES" != unlimited ]]; then
    ((NEED_FILES <= HARD_FILES)) ||
        die "a broker would need ~$NEED_FILES open files, over the hard limit $HARD_FILES: use fewer --topics"
fi
ulimit -n "$HARD_FILES"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/mirrordesk-bench.XXXXXX")"
export MIRRORDESK_KAFKA_STATE="$WORK/kafka"
RESULTS="$WORK/results.tsv"
PERF_DIR="$WORK"
[[ -z "$OUT" ]] || PERF_DIR="$(cd "$(dirname "$OUT")" && pwd)"
: >"$RESULTS"
OWN_PIDS=()
CLK_TCK="$(getconf CLK_TCK)"

cleanup() {
    local p
    for p in "${OWN_PIDS[@]}"; do
        kill "$p" 2>/dev/null || true
        wait "$p" 2>/dev/null || true
    done
    stop_brokers
    remove_work
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# CPU ticks (user + system) a process has used so far (broker_ticks: both brokers').
pid_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

# The two kinds: the source topic prefix, its topic count and partitions per topic.
declare -A NTOPICS=([one]=1 [many]=$TOPICS)
declare -A NPARTS=([one]=$BASE_PARTITIONS [many]=$PARTITIONS)

log "work dir $WORK; starting brokers"
start_brokers "$WORK"
log "source $SRC, target $TGT"

write_profile() { # FILE NAME ALIAS KIND [EXTRA_KEYS]
    cat >"$1" <<EOF
{
  "mirrordesk": 1,
  "name": "$2",
  "source": { "alias": "$3", "bootstrap": "$SRC", "security": "plaintext",
              "consumerProperties": $MD_CONSUMER_PROPS },
  "target": { "alias": "tgt", "bootstrap": "$TGT", "security": "plaintext",
              "producerProperties": $MD_PRODUCER_PROPS },
  "topics": { "include": ["$4-[0-9]+"] },
  "naming": { "policy": "prefix", "separator": "." },
  "start": "earliest",
  "createTopics": true,
  "syncTopicConfigs": true,
  "delivery": "at-least-once"${5:-}
}
EOF
}

# A measured copy of KIND into fresh target topics ALIAS.KIND-*.
run_copy() { # KIND RUN LABEL
    local kind="$1" r="$2" label="$3" d="$WORK/$3$2-$1" w t0 b0 b1
    mkdir -p "$d"
    write_profile "$d/job.mirrorjob" "bench $kind $label $r" "$label$kind$r" "$kind"
    "$BK" watch "$TGT" "$label$kind$r.$kind" --topics "${NTOPICS[$kind]}" --records "$RECORDS" --timeout 900 \
        >"$d/watch" &
    w=$!
    OWN_PIDS+=("$w")
    t0=$(now_ms)
    b0=$(broker_ticks)
    log "run $r: $label $kind ($((NTOPICS[$kind] * NPARTS[$kind])) partitions)"
    /usr/bin/time -f "$TIMEFMT" -o "$d/time" "$MD" run "$d/job.mirrorjob" --until-caught-up >"$d/md.log" 2>&1 \
        || { tail -n 30 "$d/md.log" >&2; die "mirrordesk run failed ($label $kind $r)"; }
    wait $w || die "MirrorDesk did not land $RECORDS records ($label $kind $r)"
    b1=$(broker_ticks)
    [[ $label == run ]] || return 0
    record_run "$kind" "$r" "$d/watch" watch "$d/time" "$t0"
    record_broker_cpu "$kind" "$r" "$b0" "$b1"
    log "  $kind: $(field "$d/watch" watch steady_rps) records/s steady, $(time_field "$d/time" 4) KB peak RSS"
}

# The last repeat's job of KIND again, run until stopped, on an idle or trickling source:
# CPU ms a second of MirrorDesk and of the brokers over $IDLE s, from 15 s after its start.
run_upkeep() { # KIND VARIANT [EXTRA_KEYS]
    local kind="$1" variant="$2" d="$WORK/upkeep-$1-$2" pid m0 m1 b0 b1 t0 t1 lp=""
    mkdir -p "$d"
    # Same name and alias as the last measured run: its group, at the end of every partition.
    write_profile "$d/job.mirrorjob" "bench $kind run $REPEAT" "run$kind$REPEAT" "$kind" "${3:-}"
    "$MD" run "$d/job.mirrorjob" >"$d/md.log" 2>&1 &
    pid=$!
    OWN_PIDS+=("$pid")
    if [[ $variant == trickle ]]; then
        # Paced for longer than the window; stopped after it.
        "$BK" load "$SRC" "$kind" --topics "${NTOPICS[$kind]}" --records $((TRICKLE * (IDLE + 60))) --size "$SIZE" \
            --rate "$TRICKLE" >"$d/load.out" &
        lp=$!
        OWN_PIDS+=("$lp")
    fi
    sleep 15
    kill -0 "$pid" 2>/dev/null || { tail -n 30 "$d/md.log" >&2; die "mirrordesk run ended ($kind $variant)"; }
    m0=$(pid_ticks "$pid")
    b0=$(broker_ticks)
    t0=$(now_ms)
    sleep "$IDLE"
    m1=$(pid_ticks "$pid")
    b1=$(broker_ticks)
    t1=$(now_ms)
    if ((PERF)) && [[ $kind == many ]]; then
        perf record -q -F 999 --call-graph dwarf,32768 -o "$d/perf.data" -p "$pid" -- sleep 30 >/dev/null 2>&1 ||
            log "perf record failed (kernel.perf_event_paranoid?)"
        perf report -q -i "$d/perf.data" --children --sort symbol --percent-limit 0.5 --stdio -g none \
            >"$PERF_DIR/perf-$kind-$variant.txt" 2>/dev/null || true
        rm -f "$d/perf.data"
    fi
    if [[ -n $lp ]]; then
        kill "$lp" 2>/dev/null || true
        wait "$lp" 2>/dev/null || true
    fi
    kill -TERM "$pid"
    wait "$pid" || true
    local ms=$((t1 - t0))
    record "$kind" 0 "${variant}_md_ms_per_s" "$(awk -v a="$m0" -v b="$m1" -v hz="$CLK_TCK" -v ms="$ms" 'BEGIN{printf "%.2f", (b-a)/hz*1000/(ms/1000)}')"
    record "$kind" 0 "${variant}_broker_ms_per_s" "$(awk -v a="$b0" -v b="$b1" -v hz="$CLK_TCK" -v ms="$ms" 'BEGIN{printf "%.2f", (b-a)/hz*1000/(ms/1000)}')"
    log "  $kind $variant: $(tail -n2 "$RESULTS" | cut -f3,4 | tr '\n' ' ')"
}

for kind in one many; do
    "$BK" create "$SRC" "$kind" "${NPARTS[$kind]}" --topics "${NTOPICS[$kind]}" >/dev/null
    log "loading $RECORDS records of $SIZE bytes into ${NTOPICS[$kind]} x ${NPARTS[$kind]} partitions"
    "$BK" load "$SRC" "$kind" --topics "${NTOPICS[$kind]}" --records "$RECORDS" --size "$SIZE" >"$WORK/load-$kind.out"
    log "loaded: $(field "$WORK/load-$kind.out" load steady_rps) records/s steady"
    # One librdkafka producer with the engine's settings writing the same records: what
    # writing them over these partitions costs by itself (measured once, on fresh brokers).
    record "$kind" 0 load_rps "$(field "$WORK/load-$kind.out" load steady_rps)"
done
# Fresh JVMs serve slowly until their JIT has compiled the produce and fetch paths: one
# discarded copy of each kind first (and its target topics deleted).
for kind in one many; do
    run_copy "$kind" 1 warm
    "$BK" delete "$TGT" "warm${kind}1.$kind" --topics "${NTOPICS[$kind]}" >/dev/null
done

for ((r = 1; r <= REPEAT; r++)); do
    order="one many"
    ((r % 2)) || order="many one"
    for kind in $order; do
        run_copy "$kind" "$r" run
        # Disk: only the last repeat's copies stay, for the upkeep runs.
        ((r == REPEAT)) || "$BK" delete "$TGT" "run$kind$r.$kind" --topics "${NTOPICS[$kind]}" >/dev/null
    done
done

((COPIES_ONLY)) || log "upkeep: the last jobs again, caught up, $IDLE s each"
((COPIES_ONLY)) || for kind in one many; do
    run_upkeep "$kind" idle
    run_upkeep "$kind" refresh1s ', "topicRefreshIntervalMs": 1000'
    run_upkeep "$kind" sample10ms ', "samplingIntervalMs": 10'
    run_upkeep "$kind" trickle
done

TABLE="$WORK/table.md"
PARAMS="records=$RECORDS size=$SIZE one=1x$BASE_PARTITIONS many=${TOPICS}x$PARTITIONS repeat=$REPEAT"
PARAMS+=" idle_s=$IDLE trickle_rps=$TRICKLE cores=$(nproc)"
PARAMS+=" md_consumer=$MD_CONSUMER_PROPS md_producer=$MD_PRODUCER_PROPS"
python3 "$HERE/bench_table.py" "$RESULTS" partitions "$PARAMS" >"$TABLE"
cat "$TABLE"
if [[ -n "$OUT" ]]; then
    cp "$TABLE" "$OUT"
    cp "$RESULTS" "${OUT%.md}.tsv"
fi
