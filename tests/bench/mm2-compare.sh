#!/usr/bin/env bash
# MirrorDesk against Apache Kafka's MirrorMaker 2 and the hardware limit (issue 7).
#
#   tests/bench/mm2-compare.sh [--records N] [--size BYTES] [--partitions P] [--repeat R]
#                              [--latency [--rate R] [--seconds S] [--kinds "loop md mm2"]] [--build DIR] [--out FILE]
#                              [--md-consumer-props JSON] [--md-producer-props JSON] [--eos]
#                              [--md-extra ',"transactionMaxRecords": 50000'] [--throttle BYTES_PER_S]
#                              [--map-cost [--map-groups N] [--map-interval MS] [--map-topic-exists] [--map-control]]
#                              [--footprint CONSUMER_JSON PRODUCER_JSON [--footprint-env "VAR=VALUE ..."]]
#                              [--schema-cost]
#
# Starts its own source and target brokers (tests/kafka/harness.sh, private state dir,
# stopped on exit), then on the same brokers:
#   throughput mode (default 1,000,000 records of 200 bytes over 12 partitions, 3 repeats):
#     loads the source once with bench_kafka, then per repeat copies it with
#     1. MirrorDesk headless: mirrordesk run PROFILE --until-caught-up
#     2. MirrorMaker 2, dedicated mode (tasks.max = cores, replication factors 1, no
#        checkpoints, heartbeats, offset syncs or group sync)
#     each into a fresh target topic, and measures
#     3. the limit: one librdkafka producer into the target alone, one librdkafka consumer
#        reading the source alone.
#     4. the bare copy loop: one consumer feeding one producer (bench_kafka copy), both
#        pipes at once on the same cores but none of a mirror's bookkeeping.
#     Steady rate = 80% of the records over the time between 10% and 90% of them landing on
#     the target (high watermarks polled every 100 ms); end to end = process start to the
#     last record on the target; peak RSS and CPU seconds from /usr/bin/time.
#   latency mode (--latency): a producer at a fixed rate (default 20,000 records/s for 30 s)
#     whose values start with their send time; a consumer on the target reports p50/p99/p99.9
#     of (arrival - send) for the bare copy loop (bench_kafka copy: this machine's floor),
#     MirrorDesk and MM2, each running continuously (--kinds picks and orders them).
#   --eos: both mirrors exactly-once (MirrorDesk "delivery": "exactly-once", MM2
#     exactly.once.source.support = enabled on the target). The watchers then count the
#     target's last stable offsets: a record counts once its transaction commits (what a
#     read_committed consumer can read), not when it is written. Those include one
#     transaction marker per partition and transaction: about 0.1% of a 1M-record copy, ignored.
#   --map-cost: what the offset map and group offset sync cost (issue 14). Before the repeats
#     N source groups (--map-groups, default 20) commit offsets on the bench topic (group g at
#     (g+1)/N of each partition's records, so the running sync writes partial positions while
#     the copy passes them, then exact ones) and two discarded MirrorDesk copies warm the
#     brokers' JIT. Per repeat, in rotating order so machine noise hits all, MirrorDesk runs
#     on the same data with the map and the group sync of those groups every --map-interval
#     ms (default 10000, the profile's default; "groups.include", "groupSyncIntervalMs"), and
#     with "offsetMap": false and no groups. --map-control adds a second run without the map
#     (mdnomap2): the ratio of the two runs without the map is this machine's noise floor
#     for the comparison. Each run's target topic is deleted after it is measured. Besides
#     MirrorDesk's own CPU, the CPU seconds both broker JVMs spent during the run are
#     recorded: on two shared cores the brokers' share decides the rate as much as ours.
#     No MM2, limit or copy loop runs in this mode.
#   --throttle B: MirrorDesk's runs copy at most B bytes/s ("throttleBytesPerSecond"). With
#     --map-cost at a rate the machine can hold, the rates are equal by construction and the
#     cost shows as CPU seconds (MirrorDesk + brokers) for the same records, a far steadier
#     measure on a shared machine than the rate at full speed.
#   --footprint: smaller prefetch and producer queue bounds against the defaults (issue 20).
#     Per repeat, in alternating order, MirrorDesk runs twice on the same data: with its
#     defaults ("md") and with these consumer and producer properties ("mdsmall"), e.g.
#     '{"queued.max.messages.kbytes": "8192"}' '{"queue.buffering.max.kbytes": "8192"}'.
#     --footprint-env runs "mdsmall" with these environment variables too (e.g.
#     "MALLOC_ARENA_MAX=2": the C library's allocator settings against its defaults).
#     No MM2, limit or copy loop runs in this mode.
#   --schema-cost: what translating schema ids costs (issue 37). Two schema registries
#     (Apicurio, harness.sh registry-start) beside the brokers; every value of the bench topic is
#     in the wire format with the source registry's id of one Avro schema, and the target
#     registry numbers its copy differently, so every record's id is rewritten. Per repeat, in
#     rotating order, MirrorDesk runs with "schemas": {"sync": true} ("mdschema") and without
#     ("mdplain"), and without again ("mdplain2", the A/A control: the noise floor). Each run's
#     target topic is deleted after it is measured. No MM2, limit or copy loop runs in this mode.
# Prints a markdown table (medians over the repeats, min..max in brackets) and writes it
# to --out when given.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
BUILD="${MIRRORDESK_BUILD:-$ROOT/build-bench}"
RECORDS=1000000
SIZE=200
PARTITIONS=12
REPEAT=3
MODE=throughput
RATE=20000
SECONDS_RUN=30
OUT=""
MD_CONSUMER_PROPS="{}"
MD_PRODUCER_PROPS="{}"
EOS=0
MD_EXTRA=""
MAPCOST=0
MAP_GROUPS=20
MAP_INTERVAL=10000
MAP_CONTROL=0
THROTTLE=0
MAP_EXISTS=0
KINDS=""
FOOTPRINT=0
FP_CONSUMER_PROPS="{}"
FP_ENV=""
MD_RUN_ENV=()
FP_PRODUCER_PROPS="{}"
SCHEMACOST=0
WIRE_ID=0
SRC_REGISTRY="" # ', "schemaRegistry": {...}' for the source and target objects of a profile
TGT_REGISTRY=""

BENCH_NAME=mm2-compare
# shellcheck source=lib.sh
source "$HERE/lib.sh"

while (($#)); do
    case "$1" in
        --records) RECORDS="$2"; shift ;;
        --size) SIZE="$2"; shift ;;
        --partitions) PARTITIONS="$2"; shift ;;
        --repeat) REPEAT="$2"; shift ;;
        --latency) MODE=latency ;;
        --rate) RATE="$2"; shift ;;
        --seconds) SECONDS_RUN="$2"; shift ;;
        --kinds) KINDS="$2"; shift ;;
        --build) BUILD="$2"; shift ;;
        --out) OUT="$2"; shift ;;
        # librdkafka properties for MirrorDesk's profile, e.g. '{"linger.ms": "10"}'
        --md-consumer-props) MD_CONSUMER_PROPS="$2"; shift ;;
        --md-producer-props) MD_PRODUCER_PROPS="$2"; shift ;;
        --eos) EOS=1 ;;
        --map-cost) MAPCOST=1 ;;
        --map-groups) MAP_GROUPS="$2"; shift ;;
        --map-interval) MAP_INTERVAL="$2"; shift ;;
        --map-topic-exists) MAP_EXISTS=1 ;;
        --map-control) MAP_CONTROL=1 ;;
        --throttle) THROTTLE="$2"; shift ;;
        --footprint) FOOTPRINT=1; FP_CONSUMER_PROPS="$2"; FP_PRODUCER_PROPS="$3"; shift 2 ;;
        --footprint-env) FP_ENV="$2"; shift ;;
        --schema-cost) SCHEMACOST=1 ;;
        # more top-level profile keys for MirrorDesk, JSON starting with a comma
        --md-extra) MD_EXTRA="$2"; shift ;;
        -h|--help) usage; exit 0 ;;
        *) die "unknown option '$1' (see --help)" ;;
    esac
    shift
done
require_positive RECORDS SIZE PARTITIONS REPEAT RATE SECONDS_RUN MAP_GROUPS MAP_INTERVAL
[[ "$THROTTLE" =~ ^[0-9]+$ ]] || die "--throttle takes bytes per second, got '$THROTTLE'"
((MAPCOST && EOS)) && die "--map-cost measures at-least-once jobs: \"offsetMap\": false cannot be exactly-once"
((MAPCOST)) && [[ $MODE == latency ]] && die "--map-cost is a throughput mode"
((FOOTPRINT)) && [[ $MODE == latency ]] && die "--footprint is a throughput mode"
((FOOTPRINT && MAPCOST)) && die "--footprint and --map-cost are two modes: pick one"
((SCHEMACOST && (MAPCOST || FOOTPRINT || EOS))) && die "--schema-cost is a mode of its own (at-least-once)"
((SCHEMACOST)) && [[ $MODE == latency ]] && die "--schema-cost is a throughput mode"
((SCHEMACOST)) && ((SIZE < 13)) && die "--schema-cost needs --size >= 13 (the wire-format prefix and the send time)"
(( SIZE >= 8 )) || die "size must be at least 8 bytes (the send time is embedded)"

require_md_and_bk
BG="$BUILD/tests/bench/bench_groupsync"
((MAPCOST == 0)) || [[ -x "$BG" ]] || die "$BG not built (cmake --build $BUILD --target bench_groupsync)"
require_time_and_java

LIBS="$KAFKA_LIBS"
CORES="$(nproc)"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/mirrordesk-bench.XXXXXX")"
export MIRRORDESK_KAFKA_STATE="$WORK/kafka"
# MM2 as connect-mirror-maker.sh runs it (kafka-run-class.sh defaults).
MM2_OPTS="${MIRRORDESK_BENCH_MM2_OPTS:--Xms256m -Xmx2g -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:InitiatingHeapOccupancyPercent=35 -XX:+ExplicitGCInvokesConcurrent -Djava.awt.headless=true}"
RESULTS="$WORK/results.tsv"
: >"$RESULTS"
OWN_PIDS=()
WATCH_PIDS=() # target watchers: a failed step must not leave them polling for 900 s

cleanup() {
    local p
    for p in "${WATCH_PIDS[@]}"; do
        kill "$p" 2>/dev/null || true
    done
    for p in "${OWN_PIDS[@]}"; do
        kill_tree "$p"
    done
    stop_brokers
    remove_work
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# A process started under /usr/bin/time: TERM its child (the measured program), so time
# still writes its report, then wait for both.
kill_tree() {
    local p="$1" c
    kill -0 "$p" 2>/dev/null || return 0
    for c in $(pgrep -P "$p" || true); do kill -TERM "$c" 2>/dev/null || true; done
    local i
    for ((i = 0; i < 300; i++)); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$p" 2>/dev/null; then
        for c in $(pgrep -P "$p" || true); do kill -KILL "$c" 2>/dev/null || true; done
        kill -KILL "$p" 2>/dev/null || true
    fi
    wait "$p" 2>/dev/null || true
}

log "work dir $WORK; starting brokers"
start_brokers "$WORK"
log "source $SRC, target $TGT"
if ((SCHEMACOST)); then
    # Two registries; one Avro schema on the source, and a schema on the target first so
    # that the target numbers the copy differently: every record's id is then rewritten.
    bash "$HARNESS" registry-start >"$WORK/registry.log" 2>&1 || { cat "$WORK/registry.log" >&2; die "registry did not start"; }
    bash "$HARNESS" registry-start second >"$WORK/registry2.log" 2>&1 || { cat "$WORK/registry2.log" >&2; die "second registry did not start"; }
    SRC_REG_URL="$(cat "$MIRRORDESK_KAFKA_STATE/registry/url")"
    TGT_REG_URL="$(cat "$MIRRORDESK_KAFKA_STATE/registry-second/url")"
    reg_post() { curl -sf -X POST -H 'Content-Type: application/vnd.schemaregistry.v1+json' -d "$2" "$1" | sed -n 's/.*"id":\([0-9]*\).*/\1/p'; }
    reg_post "$TGT_REG_URL/subjects/filler-value/versions" '{"schema": "{\"type\": \"long\"}"}' >/dev/null
    WIRE_ID="$(reg_post "$SRC_REG_URL/subjects/bench-value/versions" '{"schema": "{\"type\": \"bytes\"}"}')"
    [[ "$WIRE_ID" =~ ^[0-9]+$ ]] || die "could not register the bench schema"
    log "registries $SRC_REG_URL and $TGT_REG_URL; the bench values carry schema id $WIRE_ID"
fi

DELIVERY=at-least-once
((EOS)) && DELIVERY=exactly-once
WATCH_OPTS=()
((EOS)) && WATCH_OPTS=(--committed 1)
write_profile() { # FILE NAME ALIAS TOPIC_REGEX [DELIVERY [EXTRA_KEYS]]
    local delivery="${5:-$DELIVERY}"
    cat >"$1" <<EOF
{
  "mirrordesk": 1,
  "name": "$2",
  "source": { "alias": "$3", "bootstrap": "$SRC", "security": "plaintext", "consumerProperties": $MD_CONSUMER_PROPS$SRC_REGISTRY },
  "target": { "alias": "tgt", "bootstrap": "$TGT", "security": "plaintext", "producerProperties": $MD_PRODUCER_PROPS$TGT_REGISTRY },
  "topics": { "include": ["$4"] },
  "naming": { "policy": "prefix", "separator": "." },
  "start": "earliest",
  "createTopics": true,
  "syncTopicConfigs": true,
  "throttleBytesPerSecond": $THROTTLE,
  "delivery": "$delivery"$MD_EXTRA${6:-}
}
EOF
}

write_mm2() { # FILE ALIAS TOPIC_REGEX
    cat >"$1" <<EOF
clusters = $2, tgt
$2.bootstrap.servers = $SRC
tgt.bootstrap.servers = $TGT
$2->tgt.enabled = true
$2->tgt.topics = $3
tgt->$2.enabled = false
tgt->$2.emit.heartbeats.enabled = false
tasks.max = $CORES
# single-broker clusters
replication.factor = 1
checkpoints.topic.replication.factor = 1
heartbeats.topic.replication.factor = 1
offset-syncs.topic.replication.factor = 1
offset.storage.replication.factor = 1
status.storage.replication.factor = 1
config.storage.replication.factor = 1
# only the copy is measured: nothing that competes with it
emit.checkpoints.enabled = false
emit.heartbeats.enabled = false
sync.group.offsets.enabled = false
sync.topic.acls.enabled = false
refresh.topics.interval.seconds = 5
refresh.groups.enabled = false
EOF
    if ((EOS)); then
        cat >>"$1" <<EOF
# exactly-once into the target (KIP-618); dedicated mode needs the internal REST server for it
tgt.exactly.once.source.support = enabled
dedicated.mode.enable.internal.rest = true
listeners = http://127.0.0.1:0
EOF
    fi
}

start_mm2() { # PROPS LOGDIR TIMEFILE -> pid of /usr/bin/time in MM2_PID
    mkdir -p "$2"
    # shellcheck disable=SC2086
    /usr/bin/time -f "$TIMEFMT" -o "$3" java $MM2_OPTS -cp "$LIBS/*" -Dkafka.logs.dir="$2" \
        -Dlog4j2.configurationFile="$ROOT/tests/kafka/log4j2.properties" \
        org.apache.kafka.connect.mirror.MirrorMaker "$1" >"$2/stdout.log" 2>&1 &
    MM2_PID=$!
    OWN_PIDS+=("$MM2_PID")
}

# --eos: the target's transaction coordinator creates and loads __transaction_state (50
# partitions) for the first transactional producer. That is a one-time cost of the cluster,
# not of a tool, and without this whichever mirror runs first pays it.
warm_transactions() {
    ((EOS)) || return 0
    log "warming up the transaction coordinator (a small exactly-once copy)"
    "$BK" create "$SRC" eoswarm 1 >/dev/null
    "$BK" load "$SRC" eoswarm --records 1000 --size "$SIZE" >/dev/null
    write_profile "$WORK/eoswarm.mirrorjob" "bench eos warm-up" eoswarm "eoswarm" exactly-once
    "$MD" run "$WORK/eoswarm.mirrorjob" --until-caught-up >"$WORK/eoswarm.log" 2>&1 \
        || { tail -n 20 "$WORK/eoswarm.log" >&2; die "the exactly-once warm-up failed"; }
}

# ---------------------------------------------------------------- throughput

run_throughput() {
    "$BK" create "$SRC" bench "$PARTITIONS" >/dev/null
    log "loading $RECORDS records of $SIZE bytes into $PARTITIONS partitions"
    local wire=()
    ((SCHEMACOST)) && wire=(--wire-id "$WIRE_ID")
    "$BK" load "$SRC" bench --records "$RECORDS" --size "$SIZE" "${wire[@]}" >"$WORK/load.out"
    log "loaded: $(field "$WORK/load.out" load steady_rps) records/s steady"
    # Fresh JVMs serve slowly until their JIT has compiled the produce and fetch paths:
    # without a warm-up whichever tool runs first pays for it. The target takes a share of
    # the records and the source is read once before anything is measured.
    local warm=$((RECORDS < 300000 ? RECORDS : 300000))
    log "warming up the brokers ($warm records into the target, the source read once)"
    "$BK" create "$TGT" warmup "$PARTITIONS" >/dev/null
    "$BK" load "$TGT" warmup --records "$warm" --size "$SIZE" >/dev/null
    "$BK" consume "$SRC" bench --records "$RECORDS" >/dev/null
    warm_transactions
    local r
    if ((MAPCOST)); then
        run_map_cost
        return
    fi
    if ((FOOTPRINT)); then
        run_footprint
        return
    fi
    if ((SCHEMACOST)); then
        run_schema_cost
        return
    fi
    for ((r = 1; r <= REPEAT; r++)); do
        local d="$WORK/run$r"
        mkdir -p "$d"

        # 1. MirrorDesk (with --eos: exactly-once, then at-least-once on the same data)
        local w t0
        run_md md "$r" "$d" "$DELIVERY"
        ((EOS)) && run_md mdalo "$r" "$d" at-least-once

        # 2. MirrorMaker 2
        write_mm2 "$d/mm2.properties" "mm$r" "bench"
        "$BK" watch "$TGT" "mm$r.bench" --records "$RECORDS" --timeout 900 "${WATCH_OPTS[@]}" >"$d/mm2.watch" &
        w=$!
        WATCH_PIDS+=("$w")
        t0=$(now_ms)
        log "run $r: MirrorMaker 2"
        start_mm2 "$d/mm2.properties" "$d/mm2" "$d/mm2.time"
        if ! wait $w; then
            tail -n 40 "$d/mm2/server.log" >&2 || true
            die "MM2 did not land $RECORDS records (run $r)"
        fi
        kill_tree "$MM2_PID"
        collect mm2 "$r" "$d/mm2.watch" "$d/mm2.time" "$t0"

        # 3. the limit: target alone, source alone
        "$BK" create "$TGT" "limit$r" "$PARTITIONS" >/dev/null
        log "run $r: producer into the target alone"
        t0=$(now_ms)
        /usr/bin/time -f "$TIMEFMT" -o "$d/produce.time" "$BK" load "$TGT" "limit$r" --records "$RECORDS" --size "$SIZE" \
            >"$d/produce.out"
        collect_self produce "$r" "$d/produce.out" load "$d/produce.time" "$t0"
        log "run $r: consumer of the source alone"
        t0=$(now_ms)
        /usr/bin/time -f "$TIMEFMT" -o "$d/consume.time" "$BK" consume "$SRC" bench --records "$RECORDS" >"$d/consume.out"
        collect_self consume "$r" "$d/consume.out" consume "$d/consume.time" "$t0"

        # 4. the bare copy loop: both pipes at once and none of a mirror's own work
        "$BK" create "$TGT" "copy$r" "$PARTITIONS" >/dev/null
        "$BK" watch "$TGT" "copy$r" --records "$RECORDS" --timeout 900 >"$d/copy.watch" &
        w=$!
        WATCH_PIDS+=("$w")
        log "run $r: bare copy loop"
        t0=$(now_ms)
        /usr/bin/time -f "$TIMEFMT" -o "$d/copy.time" "$BK" copy "$SRC" bench --records "$RECORDS" \
            --to "$TGT" --to-topic "copy$r" >"$d/copy.out"
        wait $w || die "the bare copy loop did not land $RECORDS records (run $r)"
        collect copy "$r" "$d/copy.watch" "$d/copy.time" "$t0"
    done
}

# --map-cost: with the map and group sync against "offsetMap": false, alternating which runs
# first. The source groups sit at (g+1)/N of each partition's records.
run_map_cost() {
    local per=$((RECORDS / PARTITIONS)) r i
    log "seeding $MAP_GROUPS source groups bench-app-* with offsets on bench"
    "$BG" seed "$SRC" bench --groups "$MAP_GROUPS" --prefix bench-app --partitions "$PARTITIONS" --offset "$per" --spread
    local withmap=', "groups": { "include": ["bench-app-.*"] }, "syncGroupOffsets": true, "groupSyncIntervalMs": '"$MAP_INTERVAL"
    local nomap=', "offsetMap": false'
    # The brokers' JIT is still compiling their produce and fetch paths after the warm-up
    # above: a target broker spent three times the CPU on the first copies as on later ones.
    for ((i = 1; i <= 2; i++)); do
        mkdir -p "$WORK/warm$i"
        run_md warm "$i" "$WORK/warm$i" at-least-once "$nomap"
    done
    local kinds=(md mdnomap)
    ((MAP_CONTROL)) && kinds+=(mdnomap2)
    for ((r = 1; r <= REPEAT; r++)); do
        local d="$WORK/run$r" n=${#kinds[@]} kind
        mkdir -p "$d"
        if ((MAP_EXISTS)); then
            # As for a job that ran before: its map topic is there, so the run does
            # not create one on the target while it copies.
            "$BK" create "$TGT" "bench-map-$r" 1 >/dev/null
            withmap="${withmap%%, \"offsetMapTopic\"*}"', "offsetMapTopic": "bench-map-'"$r"'"'
        fi
        for ((i = 0; i < n; i++)); do # rotating order: each kind runs first in turn
            kind="${kinds[$(((i + r) % n))]}"
            if [[ $kind == md ]]; then
                run_md md "$r" "$d" at-least-once "$withmap"
            else
                run_md "$kind" "$r" "$d" at-least-once "$nomap"
            fi
        done
        # what the sync did in the run with the map: its passes that wrote
        log "  md: $(grep -c 'synced offsets of' "$d/md.log" || true) group sync passes wrote offsets"
    done
}

# --schema-cost: with schema sync (every id translated) against without, and without again.
run_schema_cost() {
    local sync=', "schemas": { "sync": true, "ids": "translate" }'
    local kinds=(mdschema mdplain mdplain2) r i kind
    for ((r = 1; r <= REPEAT; r++)); do
        local d="$WORK/run$r" n=${#kinds[@]}
        mkdir -p "$d"
        for ((i = 0; i < n; i++)); do # rotating order: each kind runs first in turn
            kind="${kinds[$(((i + r) % n))]}"
            if [[ $kind == mdschema ]]; then
                SRC_REGISTRY=", \"schemaRegistry\": { \"url\": \"$SRC_REG_URL\" }"
                TGT_REGISTRY=", \"schemaRegistry\": { \"url\": \"$TGT_REG_URL\" }"
                run_md mdschema "$r" "$d" at-least-once "$sync"
                SRC_REGISTRY="" TGT_REGISTRY=""
                # Its own subject (the target topic's name differs per run): registered, under another id.
                grep -q 'schema sync: registered' "$d/mdschema.log" ||
                    die "the schema sync run registered nothing (run $r): $(tail -n 5 "$d/mdschema.log")"
                log "  $(grep -o 'schema sync: registered.*' "$d/mdschema.log" | head -n1)"
            else
                run_md "$kind" "$r" "$d" at-least-once
            fi
            "$BK" delete "$TGT" "$kind$r.bench" >/dev/null
        done
    done
}

# --footprint: the defaults against the given bounds, alternating which runs first.
run_footprint() {
    local r
    for ((r = 1; r <= REPEAT; r++)); do
        local d="$WORK/run$r"
        mkdir -p "$d"
        if ((r % 2)); then
            run_md md "$r" "$d" at-least-once
            run_md_small "$r" "$d"
        else
            run_md_small "$r" "$d"
            run_md md "$r" "$d" at-least-once
        fi
    done
}

run_md_small() { # RUN DIR
    local c="$MD_CONSUMER_PROPS" p="$MD_PRODUCER_PROPS"
    MD_CONSUMER_PROPS="$FP_CONSUMER_PROPS" MD_PRODUCER_PROPS="$FP_PRODUCER_PROPS"
    read -r -a MD_RUN_ENV <<<"$FP_ENV"
    run_md mdsmall "$1" "$2" at-least-once
    MD_CONSUMER_PROPS="$c" MD_PRODUCER_PROPS="$p" MD_RUN_ENV=()
}

run_md() { # KIND RUN DIR DELIVERY [EXTRA_KEYS]
    local kind="$1" r="$2" d="$3" w t0 b0 b1
    write_profile "$d/$kind.mirrorjob" "bench $kind $r" "$kind$r" "bench" "$4" "${5:-}"
    "$BK" watch "$TGT" "$kind$r.bench" --records "$RECORDS" --timeout 900 "${WATCH_OPTS[@]}" >"$d/$kind.watch" &
    w=$!
    WATCH_PIDS+=("$w")
    t0=$(now_ms)
    b0=$(broker_ticks)
    log "run $r: MirrorDesk $kind ($4)"
    /usr/bin/time -f "$TIMEFMT" -o "$d/$kind.time" env "${MD_RUN_ENV[@]}" "$MD" run "$d/$kind.mirrorjob" --until-caught-up >"$d/$kind.log" 2>&1 \
        || { tail -n 30 "$d/$kind.log" >&2; die "mirrordesk run failed (run $r)"; }
    wait $w || die "MirrorDesk did not land $RECORDS records (run $r)"
    b1=$(broker_ticks)
    collect "$kind" "$r" "$d/$kind.watch" "$d/$kind.time" "$t0"
    record_broker_cpu "$kind" "$r" "$b0" "$b1"
    # A long --map-cost series would fill the disk with copies nobody reads again.
    ((MAPCOST == 0)) || "$BK" delete "$TGT" "$kind$r.bench" >/dev/null
}

collect() { # KIND RUN WATCHFILE TIMEFILE T0
    record_run "$1" "$2" "$3" watch "$4" "$5"
    log "  $1: $(field "$3" watch steady_rps) records/s steady, $(tail -n1 "$RESULTS" | cut -f4) CPU s"
}

collect_self() { # KIND RUN OUTFILE WHAT TIMEFILE T0
    record_run "$@"
    log "  $1: $(field "$3" "$4" steady_rps) records/s steady"
}

# ---------------------------------------------------------------- latency

run_latency() {
    local total=$((RATE * SECONDS_RUN))
    local prime=100
    local skip=$((prime + RATE * 5)) # the priming records and the first 5 s are warm-up
    local r kind
    # Warm both JVMs first (see run_throughput): a cold broker adds seconds of latency.
    log "warming up the brokers"
    "$BK" create "$TGT" warmup "$PARTITIONS" >/dev/null
    "$BK" load "$TGT" warmup --records 300000 --size "$SIZE" >/dev/null
    "$BK" create "$SRC" warmup "$PARTITIONS" >/dev/null
    "$BK" load "$SRC" warmup --records 300000 --size "$SIZE" >/dev/null
    "$BK" consume "$SRC" warmup --records 300000 >/dev/null
    "$BK" consume "$TGT" warmup --records 300000 >/dev/null
    warm_transactions
    for ((r = 1; r <= REPEAT; r++)); do
        local kinds="loop md mm2"
        ((EOS)) && kinds="loop md mdalo mm2"
        [[ -n $KINDS ]] && kinds="$KINDS"
        for kind in $kinds; do
            local d="$WORK/lat$r-$kind" topic="lat$r$kind" target pid
            mkdir -p "$d"
            "$BK" create "$SRC" "$topic" "$PARTITIONS" >/dev/null
            if [[ $kind == loop ]]; then
                # The floor: one consumer feeding one producer, the same client settings as
                # the throughput table's copy loop and nothing of a mirror's bookkeeping.
                target="loop.$topic"
                "$BK" create "$TGT" "$target" "$PARTITIONS" >/dev/null
                /usr/bin/time -f "$TIMEFMT" -o "$d/time" "$BK" copy "$SRC" "$topic" --records $((prime + total)) \
                    --to "$TGT" --to-topic "$target" --timeout $((SECONDS_RUN + 300)) >"$d/copy.out" 2>&1 &
                pid=$!
                OWN_PIDS+=("$pid")
            elif [[ $kind == md || $kind == mdalo ]]; then
                local delivery="$DELIVERY"
                [[ $kind == mdalo ]] && delivery=at-least-once
                write_profile "$d/md.mirrorjob" "bench latency $r $kind" "$kind" "$topic" "$delivery"
                target="$kind.$topic"
                /usr/bin/time -f "$TIMEFMT" -o "$d/time" "$MD" run "$d/md.mirrorjob" >"$d/md.log" 2>&1 &
                pid=$!
                OWN_PIDS+=("$pid")
            else
                write_mm2 "$d/mm2.properties" "mm" "$topic"
                target="mm.$topic"
                start_mm2 "$d/mm2.properties" "$d/mm2" "$d/time"
                pid=$MM2_PID
            fi
            log "latency run $r: $kind, waiting for the mirror to run"
            # Live once a few primed records came through.
            "$BK" load "$SRC" "$topic" --records "$prime" --size "$SIZE" >/dev/null
            "$BK" watch "$TGT" "$target" --records "$prime" --timeout 300 >/dev/null \
                || die "$kind did not start mirroring $topic (latency run $r)"
            "$BK" latency "$TGT" "$target" --records $((prime + total)) --skip "$skip" --timeout $((SECONDS_RUN + 120)) \
                >"$d/latency.out" &
            local lp=$!
            log "latency run $r: $kind, $RATE records/s for $SECONDS_RUN s"
            "$BK" load "$SRC" "$topic" --records "$total" --size "$SIZE" --rate "$RATE" >"$d/load.out"
            wait $lp || log "latency probe incomplete for $kind (run $r)"
            kill_tree "$pid"
            record "$kind" "$r" p50_ms "$(field "$d/latency.out" latency p50_ms)"
            record "$kind" "$r" p99_ms "$(field "$d/latency.out" latency p99_ms)"
            record "$kind" "$r" p999_ms "$(field "$d/latency.out" latency p999_ms)"
            record "$kind" "$r" max_ms "$(field "$d/latency.out" latency max_ms)"
            record_time "$kind" "$r" "$d/time"
            log "  $kind: $(sed -n 's/^RESULT latency //p' "$d/latency.out")"
        done
    done
}

if [[ $MODE == throughput ]]; then
    run_throughput
else
    run_latency
fi

TABLE="$WORK/table.md"
python3 "$HERE/bench_table.py" "$RESULTS" "$MODE" \
    "records=$RECORDS size=$SIZE partitions=$PARTITIONS repeat=$REPEAT rate=$RATE seconds=$SECONDS_RUN cores=$CORES eos=$EOS mapcost=$MAPCOST groups=$MAP_GROUPS interval_ms=$MAP_INTERVAL map_exists=$MAP_EXISTS throttle=$THROTTLE schemacost=$SCHEMACOST footprint=$FOOTPRINT footprint_env=${FP_ENV// /,} small_consumer=${FP_CONSUMER_PROPS// /} small_producer=${FP_PRODUCER_PROPS// /}" >"$TABLE"
cat "$TABLE"
if [[ -n "$OUT" ]]; then
    cp "$TABLE" "$OUT"
    cp "$RESULTS" "${OUT%.md}.tsv"
fi
