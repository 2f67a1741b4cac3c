#!/usr/bin/env bash
# A cluster pane on a real 10,000-topic Kafka cluster (issue 20): bench_large_cluster against
# private Kafka 4.1.1 brokers.
#
#   tests/bench/large-cluster.sh [--topics T] [--partitions P] [--groups G] [--brokers B]
#                                [--batch N] [--records R] [--repeat K] [--refreshes N]
#                                [--heap SIZE] [--build DIR] [--out FILE]
#
# Starts B KRaft brokers (default 3: node 1 broker + controller, the others brokers only) in a
# private state dir, full JIT and G1 with a HEAP heap each (default 2g), stopped and removed on
# exit. Then bench_large_cluster populate creates T topics (default 10,000) of P partitions
# (default 5: 50,000 partitions) with CreateTopics, N topics per request (default 500), writes R
# records to every partition (default 4) and commits offsets for G consumer groups (default
# 2,000, five topics each); and bench_large_cluster browse, K times (default 3) in a fresh
# process each, shows a cluster pane on the cluster and measures the admin fetch, first useful
# paint, UI stalls while it loads and refreshes, the topic filter and the Consumer groups tab.
# Prints the RESULT lines, what the brokers needed (heap, RSS, open files, memory maps) and the
# load average; --out FILE keeps them.
#
# Linux limits: a broker keeps every partition's active segment open and maps its offset and
# time index (two maps per partition). The script raises the soft open-files limit to the hard
# one and refuses to start when a broker's share of the partitions does not fit it, or does not
# fit vm.max_map_count (then: sysctl -w vm.max_map_count=262144 as root). Where the hard limit
# cannot be raised (no CAP_SYS_RESOURCE, as in some containers), more brokers spread the files.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
BUILD="${MIRRORDESK_BUILD:-$ROOT/build-bench}"
TOPICS=10000
PARTITIONS=5
GROUPS_N=2000
BROKERS=3
BATCH=500
RECORDS=4
REPEAT=3
REFRESHES=3
HEAP=2g
OUT=""

BENCH_NAME=large-cluster
# shellcheck source=lib.sh
source "$HERE/lib.sh"

while (($#)); do
    case "$1" in
        --topics) TOPICS="$2"; shift ;;
        --partitions) PARTITIONS="$2"; shift ;;
        --groups) GROUPS_N="$2"; shift ;;
        --brokers) BROKERS="$2"; shift ;;
        --batch) BATCH="$2"; shift ;;
        --records) RECORDS="$2"; shift ;;
        --repeat) REPEAT="$2"; shift ;;
        --refreshes) REFRESHES="$2"; shift ;;
        --heap) HEAP="$2"; shift ;;
        --build) BUILD="$2"; shift ;;
        --out) OUT="$2"; shift ;;
        -h|--help) usage; exit 0 ;;
        *) die "unknown option '$1' (see --help)" ;;
    esac
    shift
done
require_positive TOPICS PARTITIONS GROUPS_N BROKERS BATCH RECORDS REPEAT REFRESHES
[[ "$HEAP" =~ ^[0-9]+[mMgG]$ ]] || die "--heap takes a size such as 2g or 1536m, got '$HEAP'"

BL="$BUILD/tests/bench/bench_large_cluster"
[[ -x "$BL" ]] || die "$BL not built (cmake --build $BUILD --target bench_large_cluster)"
command -v java >/dev/null || die "java not found"

# --- limits ---------------------------------------------------------------------
# The internal topics add a few dozen partitions; a margin covers them, the JVM's own jars
# and sockets, and an uneven spread of partitions over the brokers.
PER_BROKER=$(((TOPICS * PARTITIONS + BROKERS - 1) / BROKERS))
HARD_FILES="$(ulimit -Hn)"
if [[ "$HARD_FILES" != unlimited ]]; then
    NEED_FILES=$((PER_BROKER * 11 / 10 + 1500))
    ((NEED_FILES <= HARD_FILES)) ||
        die "a broker would keep ~$PER_BROKER partitions open (needs ~$NEED_FILES files), over the hard open-files" \
            "limit $HARD_FILES: raise it (ulimit -Hn, as root) or use more --brokers"
fi
ulimit -n "$HARD_FILES"
MAPS="$(cat /proc/sys/vm/max_map_count)"
NEED_MAPS=$((PER_BROKER * 2 * 11 / 10 + 10000))
((NEED_MAPS <= MAPS)) ||
    die "a broker would map ~$((PER_BROKER * 2)) index files, over vm.max_map_count $MAPS (needs ~$NEED_MAPS):" \
        "run 'sysctl -w vm.max_map_count=262144' as root, or use more --brokers"

# --- brokers --------------------------------------------------------------------
bash "$HARNESS" fetch >/dev/null
LIBS="$KAFKA_LIBS"
LOG4J="$ROOT/tests/kafka/log4j2.properties"
JAVA_OPTS="-Xms$HEAP -Xmx$HEAP -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:+ExitOnOutOfMemoryError -Djava.awt.headless=true"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/mirrordesk-bench.XXXXXX")"
BROKER_PIDS=()
stop_cluster() {
    local pid i
    for pid in "${BROKER_PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    # A clean shutdown of thousands of partitions takes a while; the data is thrown away.
    for ((i = 0; i < 300; i++)); do
        local alive=0
        for pid in "${BROKER_PIDS[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
        ((alive)) || return 0
        sleep 0.2
    done
    for pid in "${BROKER_PIDS[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
}
cleanup() {
    stop_cluster
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

read -r -a PORTS <<<"$(python3 - "$((BROKERS + 1))" <<'EOF'
import socket, sys
socks = [socket.socket() for _ in range(int(sys.argv[1]))]
for s in socks:
    s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in socks))
EOF
)"
CONTROLLER_PORT="${PORTS[$BROKERS]}"
# The top bit cleared: a base64 id then never starts with "-", which the tools would take for an option.
CLUSTER_ID="$(python3 -c 'import base64, uuid; print(base64.urlsafe_b64encode(uuid.UUID(int=uuid.uuid4().int & ~(1 << 127)).bytes).decode().rstrip("="))')"

write_broker_config() {
    local n="$1" dir="$WORK/broker$1" port="${PORTS[$(($1 - 1))]}"
    mkdir -p "$dir/data" "$dir/logs"
    {
        if ((n == 1)); then
            echo "process.roles=broker,controller"
            echo "listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$CONTROLLER_PORT"
            echo "advertised.listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$CONTROLLER_PORT"
        else
            echo "process.roles=broker"
            echo "listeners=PLAINTEXT://127.0.0.1:$port"
            echo "advertised.listeners=PLAINTEXT://127.0.0.1:$port"
        fi
        cat <<EOF
node.id=$n
controller.quorum.bootstrap.servers=127.0.0.1:$CONTROLLER_PORT
controller.listener.names=CONTROLLER
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
inter.broker.listener.name=PLAINTEXT
log.dirs=$dir/data
auto.create.topics.enable=false
num.partitions=1
default.replication.factor=1
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
# Index files are preallocated to this size and mapped; 10 MB each (the default) over
# tens of thousands of partitions is a terabyte of address space for a few records.
log.index.size.max.bytes=65536
num.network.threads=2
num.io.threads=4
num.recovery.threads.per.data.dir=2
log.cleaner.threads=1
EOF
    } >"$dir/server.properties"
    local args=(format -t "$CLUSTER_ID" -c "$dir/server.properties")
    ((n == 1)) && args+=(--standalone)
    # shellcheck disable=SC2086
    java $JAVA_OPTS -Xms64m -cp "$LIBS/*" -Dkafka.logs.dir="$dir/logs" -Dlog4j2.configurationFile="$LOG4J" \
        kafka.tools.StorageTool "${args[@]}" >"$dir/logs/format.out" 2>&1 ||
        { cat "$dir/logs/format.out" >&2; die "formatting broker $n failed"; }
}

launch_broker() {
    local n="$1" dir="$WORK/broker$1"
    # shellcheck disable=SC2086
    setsid java $JAVA_OPTS -cp "$LIBS/*" -Dkafka.logs.dir="$dir/logs" -Dlog4j2.configurationFile="$LOG4J" \
        -Dmirrordesk.broker="large$n" kafka.Kafka "$dir/server.properties" </dev/null >"$dir/logs/stdout.log" 2>&1 &
    echo $! >"$dir/pid"
    BROKER_PIDS+=("$!")
}

wait_broker() {
    local n="$1" dir="$WORK/broker$1" start=$SECONDS
    until grep -q 'Kafka Server started' "$dir/logs/server.log" 2>/dev/null; do
        kill -0 "$(cat "$dir/pid")" 2>/dev/null || { tail -n 40 "$dir/logs/server.log" "$dir/logs/stdout.log" >&2; die "broker $n exited"; }
        ((SECONDS - start < 180)) || die "broker $n not ready after 180 s"
        sleep 0.5
    done
}

log "work dir $WORK; $BROKERS brokers (heap $HEAP each), ~$PER_BROKER partitions each;" \
    "open files $(ulimit -n), vm.max_map_count $MAPS"
for ((n = 1; n <= BROKERS; n++)); do write_broker_config "$n"; done
# The controller first: the other brokers register with it.
launch_broker 1
wait_broker 1
for ((n = 2; n <= BROKERS; n++)); do launch_broker "$n"; done
for ((n = 2; n <= BROKERS; n++)); do wait_broker "$n"; done
BOOTSTRAP="127.0.0.1:${PORTS[0]}"
log "brokers ready at $BOOTSTRAP (pids ${BROKER_PIDS[*]})"

# What each broker holds and needs: heap after a full GC, RSS, open files, memory maps.
broker_needs() {
    local n pid heap
    for ((n = 1; n <= BROKERS; n++)); do
        pid="${BROKER_PIDS[$((n - 1))]}"
        jcmd "$pid" GC.run >/dev/null 2>&1 || true
        heap="$(jcmd "$pid" GC.heap_info 2>/dev/null | sed -n 's/.*total [0-9]*K, used \([0-9]*\)K.*/\1/p' | head -1)"
        printf 'RESULT broker node=%d when=%s partitions=%s heap_used_mb=%s rss_mb=%s open_files=%s maps=%s\n' "$n" "$1" \
            "$(find "$WORK/broker$n/data" -mindepth 1 -maxdepth 1 -type d -name '*-[0-9]*' | wc -l)" \
            "$((${heap:-0} / 1024))" "$(($(awk '/VmRSS/ { print $2 }' "/proc/$pid/status") / 1024))" \
            "$(find "/proc/$pid/fd" -mindepth 1 -maxdepth 1 | wc -l)" "$(wc -l <"/proc/$pid/maps")"
    done
}

: >"$WORK/results.txt"
log "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
log "populate: $TOPICS topics x $PARTITIONS partitions in batches of $BATCH, $RECORDS records per partition, $GROUPS_N groups"
"$BL" populate "$BOOTSTRAP" --topics "$TOPICS" --partitions "$PARTITIONS" --batch "$BATCH" --records "$RECORDS" \
    --groups "$GROUPS_N" | tee -a "$WORK/results.txt"
broker_needs populated | tee -a "$WORK/results.txt"
for ((r = 1; r <= REPEAT; r++)); do
    log "browse round $r of $REPEAT (load average $(cut -d' ' -f1-3 /proc/loadavg))"
    "$BL" browse "$BOOTSTRAP" --topics "$TOPICS" --groups "$GROUPS_N" --refreshes "$REFRESHES" \
        | sed "s/^RESULT /RESULT run=$r /" | tee -a "$WORK/results.txt" || log "round $r: a goal failed (see above)"
done
broker_needs browsed | tee -a "$WORK/results.txt"
log "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
[[ -z "$OUT" ]] || cp "$WORK/results.txt" "$OUT"
