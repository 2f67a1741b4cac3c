#!/usr/bin/env bash
# Real Apache Kafka brokers (single-node KRaft, broker + controller in one JVM)
# for MirrorDesk's integration tests.
#
#   harness.sh fetch                 Kafka jars and Apicurio Registry into the user
#                                    cache (Maven), once
#   harness.sh start NAME [--sasl]   fresh broker NAME on free loopback ports
#   harness.sh stop NAME             clean shutdown (TERM, then KILL after a timeout)
#   harness.sh kill NAME             kill -9, as a crash; data and ports are kept
#   harness.sh restart NAME          start NAME again with the same ports and data
#   harness.sh pause|resume NAME     SIGSTOP / SIGCONT the broker (a stall: see cmd_signal)
#   harness.sh start-all             "source", "target" (PLAINTEXT) and "sasl"
#                                    (SASL_PLAINTEXT: SCRAM-SHA-512/256 and PLAIN;
#                                    an SSL listener with client certificates; and
#                                    SASL_SSL listeners, SCRAM-SHA-512, see tls.sh),
#                                    the schema registry and a second one named
#                                    "second", all in parallel
#   harness.sh start-pair            "source" and "target" only, in parallel
#   harness.sh stop-all              stop every broker and registry of the state dir
#   harness.sh bootstrap NAME        print host:port of NAME's client listener
#   harness.sh ssl-bootstrap NAME    print host:port of a --sasl broker's SSL listener
#   harness.sh sasl-ssl-bootstrap NAME [good|wrong-host|expired]
#                                    print host:port of a --sasl broker's SASL_SSL
#                                    listener with a good certificate (default), one
#                                    for another host name, or an expired one
#   harness.sh status                one line per broker
#   harness.sh start NAME --proxied  a PLAINTEXT broker reached through Toxiproxy
#                                    (bootstrap), plus a direct listener
#                                    (direct-bootstrap) for the test's own clients
#   harness.sh start NAME --acl      SASL_PLAINTEXT (SCRAM-SHA-512) with StandardAuthorizer:
#                                    no ACL, no access; the SASL user has none until a
#                                    test grants it; direct-bootstrap is a PLAINTEXT
#                                    listener whose anonymous clients are super users
#   harness.sh direct-bootstrap NAME print host:port of a --proxied or --acl broker's direct listener
#   harness.sh toxic NAME add TYPE upstream|downstream JSON | clear | disable | enable
#                                    network faults on a --proxied broker's proxy
#   harness.sh proxy-start|proxy-stop  Toxiproxy itself (start NAME --proxied starts it)
#   harness.sh start-cluster3 NAME...  fresh three-node KRaft clusters NAME (in parallel):
#                                    nodes NAME-0..NAME-2, each broker + controller
#                                    (node.id 0..2, three voters), replication factor 3,
#                                    min ISR 2, StandardAuthorizer; PLAINTEXT (anonymous:
#                                    a super user) and SASL_PLAINTEXT SCRAM-SHA-512 with the
#                                    users admin (super user), alice, bob and mirror,
#                                    password "<user>-test-secret" (see start_cluster3)
#   harness.sh kill-node NAME IDX    kill -9 node IDX of cluster NAME (a crash; data and
#                                    ports are kept)
#   harness.sh stop-node NAME IDX    stop node IDX of cluster NAME as an operator does (SIGTERM:
#                                    controlled shutdown; data and ports kept for start-node)
#   harness.sh start-node NAME IDX   start that node again (same ports and data); returns
#                                    once it is back in the cluster and serves clients
#   harness.sh sasl-bootstrap NAME   print a cluster's SASL_PLAINTEXT bootstrap list
#   harness.sh registry-start|registry-stop [NAME]
#                                    Apicurio Registry 3 (in memory, empty at each start;
#                                    see registry.sh); without NAME the default one (http
#                                    and https), with NAME another, independent one (http)
#   harness.sh registry-url [NAME] [--https]
#                                    print its Confluent-compatible API's base URL (--https:
#                                    the default registry over https, its CA in
#                                    registry/tls/ca.pem)
#
# State: $MIRRORDESK_KAFKA_STATE/NAME/ holds server.properties, data/, logs/,
# pid, ports, mode and bootstrap (written only once the broker is ready, removed
# by stop); a --sasl broker also has ssl-bootstrap, the sasl-ssl-*bootstrap
# files and tls/ (a test CA, the broker's keystores, a client certificate with
# an encrypted key, and an unrelated CA, other-ca.pem, for the "wrong CA"
# case). Each broker is stopped by its own pid only, never by process name.
# A three-node cluster NAME: its nodes are brokers NAME-0, NAME-1, NAME-2 as
# above (each with pid, ports "PLAINTEXT CONTROLLER SASL", bootstrap and
# sasl-bootstrap of its own), and $MIRRORDESK_KAFKA_STATE/NAME/ holds cluster3
# (a marker), bootstrap and sasl-bootstrap (the three nodes' addresses, comma
# separated; written once all three are ready, removed by stop-all).
# MIRRORDESK_KAFKA_PORTS=LOW-HIGH: the loopback ports to choose from (pick_ports).
set -euo pipefail

HARNESS_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
KAFKA_VERSION="$(sed -n 's:.*<kafka.version>\(.*\)</kafka.version>.*:\1:p' "$HARNESS_DIR/pom.xml")"
CACHE_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/mirrordesk/kafka-$KAFKA_VERSION"
LIBS="$CACHE_DIR/libs"
STATE="${MIRRORDESK_KAFKA_STATE:-${TMPDIR:-/tmp}/mirrordesk-kafka-$(id -u)}"
SASL_USER="${MIRRORDESK_SASL_USER:-mirrordesk}"
SASL_PASSWORD="${MIRRORDESK_SASL_PASSWORD:-mirrordesk-test-secret}"
# Protects the test client's private key (tls/client.key) and the broker's keystore.
TLS_KEY_PASSWORD="${MIRRORDESK_TLS_KEY_PASSWORD:-mirrordesk-key-secret}"
READY_TIMEOUT="${MIRRORDESK_KAFKA_READY_TIMEOUT:-120}"
STOP_TIMEOUT=60
# Small heap, serial GC and C1 only: three brokers share 2 cores with the build
# and the tests, and none of them carries real load.
JAVA_OPTS_DEFAULT="-Xms64m -Xmx384m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:+ExitOnOutOfMemoryError -Djava.awt.headless=true"
JAVA_OPTS="${MIRRORDESK_KAFKA_JAVA_OPTS:-$JAVA_OPTS_DEFAULT}"
# The nodes of the three-node clusters (start-cluster3): six JVMs for two
# clusters, so a smaller heap still (cost measured: see start_cluster3).
CLUSTER3_JAVA_OPTS="${MIRRORDESK_CLUSTER3_JAVA_OPTS:--Xms32m -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:+ExitOnOutOfMemoryError -Djava.awt.headless=true}"
# SCRAM-SHA-512 users of the three-node clusters, created at format time:
# each with password "<user>-test-secret" (tests/common/KafkaTestEnv.h says the same).
CLUSTER3_USERS=(admin alice bob mirror)

log() { printf 'harness: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

# shellcheck source=proxy.sh
source "$HARNESS_DIR/proxy.sh"
# shellcheck source=tls.sh
source "$HARNESS_DIR/tls.sh"
# shellcheck source=registry.sh
source "$HARNESS_DIR/registry.sh"

usage() {
    # The comment block at the top, however long it grows.
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}" >&2
    exit 2
}

valid_name() {
    [[ "$1" =~ ^[A-Za-z0-9_-]+$ ]] || die "invalid broker name '$1' (letters, digits, _ and - only)"
}

# --- jars -------------------------------------------------------------------

# The stamp records the POM it was fetched from, so editing the POM refetches.
pom_sum() { sha256sum "$HARNESS_DIR/pom.xml" | cut -d' ' -f1; }

libs_complete() {
    [[ -f "$LIBS/.complete" && "$(cat "$LIBS/.complete")" == "$(pom_sum)" ]]
}

cmd_fetch() {
    if libs_complete; then
        return 0
    fi
    command -v mvn >/dev/null || die "mvn not found: install Maven (installer/deps.sh does)"
    mkdir -p "$CACHE_DIR"
    # Parallel callers (several start commands) wait for one fetch.
    exec 8>"$CACHE_DIR/.fetch.lock"
    flock 8
    if libs_complete; then
        exec 8>&-
        return 0
    fi
    log "fetching Apache Kafka $KAFKA_VERSION jars with Maven into $LIBS"
    local tmp="$CACHE_DIR/libs.tmp.$$"
    rm -rf "$tmp"
    # Into a fresh directory, then swapped in: a stale binding jar from an older
    # POM must not stay on the classpath.
    if ! mvn -q -B -Dstyle.color=never -f "$HARNESS_DIR/pom.xml" dependency:copy-dependencies \
            -DincludeScope=runtime -DoutputDirectory="$tmp"; then
        rm -rf "$tmp"
        die "Maven could not resolve the Kafka jars (see its output above)"
    fi
    [[ -f "$tmp/kafka_2.13-$KAFKA_VERSION.jar" ]] || die "Maven finished but kafka_2.13-$KAFKA_VERSION.jar is missing in $tmp"
    pom_sum >"$tmp/.complete"
    rm -rf "$LIBS"
    mv "$tmp" "$LIBS"
    exec 8>&-
    log "jars ready ($(ls "$LIBS" | wc -l) files)"
}

require_java() {
    command -v java >/dev/null || die "java not found: install a JRE 17+ (installer/deps.sh does)"
}

kafka_java() {
    # shellcheck disable=SC2086  # JAVA_OPTS is a list of words on purpose
    java $JAVA_OPTS -cp "$LIBS/*" "$@"
}

# --- ports ------------------------------------------------------------------

# N distinct free loopback ports. Chosen below the kernel's ephemeral range so
# an outgoing connection cannot take a broker's port while it is down between
# kill and restart. MIRRORDESK_KAFKA_PORTS=LOW-HIGH narrows the range: test
# lanes that run side by side get ranges of their own, so one lane's new broker
# cannot take the port of another lane's broker killed a moment before.
pick_ports() {
    local range="${MIRRORDESK_KAFKA_PORTS:-20000-31999}"
    [[ "$range" =~ ^([0-9]+)-([0-9]+)$ ]] && (( BASH_REMATCH[1] >= 1024 && BASH_REMATCH[1] < BASH_REMATCH[2] )) ||
        die "MIRRORDESK_KAFKA_PORTS must be LOW-HIGH with 1024 <= LOW < HIGH, not '$range'"
    local low="${BASH_REMATCH[1]}" high="${BASH_REMATCH[2]}" eph_low eph_high
    if read -r eph_low eph_high </proc/sys/net/ipv4/ip_local_port_range 2>/dev/null &&
        (( low <= eph_high && high >= eph_low )); then
        # A warning, not a refusal: on a machine whose ephemeral range covers
        # every port there is no safe choice, and tests that never kill a
        # broker do not need one.
        log "warning: MIRRORDESK_KAFKA_PORTS=$range overlaps the kernel's ephemeral ports ($eph_low-$eph_high): an outgoing connection can take a killed broker's port before it restarts (seen as 'Address already in use'); choose ports below $eph_low"
    fi
    python3 - "$1" "$low" "$high" <<'EOF'
import random, socket, sys
n, low, high = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
held, ports = [], []
for _ in range(2000):
    if len(ports) == n:
        break
    p = random.randrange(low, high + 1)
    if p in ports:
        continue
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        s.bind(("127.0.0.1", p))
    except OSError:
        s.close()
        continue
    held.append(s)
    ports.append(p)
if len(ports) != n:
    sys.exit("no free loopback ports found")
print(" ".join(map(str, ports)))
EOF
}

# Bounded: a connect to a port that is bound but not accepting yet (a node
# starting while clients crowd its backlog) has its SYN dropped and blocks for
# the kernel's SYN retries, about two minutes; a rolling restart hung so.
port_open() {
    timeout 2 bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$0"' "$1" 2>/dev/null
}

# --- one broker -------------------------------------------------------------

broker_dir() { printf '%s/%s' "$STATE" "$1"; }

broker_pid() {
    local pidfile
    pidfile="$(broker_dir "$1")/pid"
    [[ -f "$pidfile" ]] || return 1
    local pid
    pid="$(cat "$pidfile")"
    [[ "$pid" =~ ^[0-9]+$ ]] || return 1
    # A recycled pid is not ours: it must still be this broker's JVM.
    tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q -- "$(broker_dir "$1")/server.properties" || return 1
    printf '%s' "$pid"
}

running() { broker_pid "$1" >/dev/null; }

cluster_id() {
    python3 -c '
import base64, uuid
while True:
    s = base64.urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("=")
    if not s.startswith("-"):
        print(s)
        break'
}

write_config() {
    local name="$1" mode="$2" client_port="$3" controller_port="$4" internal_port="${5:-}" ssl_port="${6:-}"
    local sasl_ssl_ports=("${@:7}")
    local dir
    dir="$(broker_dir "$name")"
    sed -e "s|@CONTROLLER_PORT@|$controller_port|g" -e "s|@DATA_DIR@|$dir/data|g" -e "s|@NAME@|$name|g" \
        "$HARNESS_DIR/server.properties.in" >"$dir/server.properties"
    if [[ "$mode" == sasl ]]; then
        # Clients authenticate on SASL_PLAINTEXT with SCRAM-SHA-512 or
        # SCRAM-SHA-256 (credentials stored at format time) or PLAIN (same
        # user and password, from the JAAS line); or on SSL with a client
        # certificate signed by the test CA (mutual TLS); or on the SASL_SSL
        # listeners of tls.sh with SCRAM-SHA-512. The broker
        # talks to itself (transaction markers, ...) on a separate PLAINTEXT
        # listener, so inter-broker traffic needs no credentials of its own.
        local sasl_ssl
        sasl_ssl="$(sasl_ssl_listeners "${sasl_ssl_ports[@]}")"
        cat >>"$dir/server.properties" <<EOF

listeners=SASL_PLAINTEXT://127.0.0.1:$client_port,SSL://127.0.0.1:$ssl_port,$sasl_ssl,INTERNAL://127.0.0.1:$internal_port,CONTROLLER://127.0.0.1:$controller_port
advertised.listeners=SASL_PLAINTEXT://127.0.0.1:$client_port,SSL://127.0.0.1:$ssl_port,$sasl_ssl,INTERNAL://127.0.0.1:$internal_port,CONTROLLER://127.0.0.1:$controller_port
listener.security.protocol.map=SASL_PLAINTEXT:SASL_PLAINTEXT,SSL:SSL,$(sasl_ssl_protocol_map),INTERNAL:PLAINTEXT,CONTROLLER:PLAINTEXT
$(sasl_ssl_config "$dir")
listener.name.ssl.ssl.keystore.type=PKCS12
listener.name.ssl.ssl.keystore.location=$dir/tls/broker.p12
listener.name.ssl.ssl.keystore.password=$TLS_KEY_PASSWORD
listener.name.ssl.ssl.truststore.type=PEM
listener.name.ssl.ssl.truststore.location=$dir/tls/ca.pem
listener.name.ssl.ssl.client.auth=required
inter.broker.listener.name=INTERNAL
sasl.enabled.mechanisms=SCRAM-SHA-512,SCRAM-SHA-256,PLAIN
listener.name.sasl_plaintext.sasl.enabled.mechanisms=SCRAM-SHA-512,SCRAM-SHA-256,PLAIN
listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
listener.name.sasl_plaintext.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required user_$SASL_USER="$SASL_PASSWORD";
EOF
    elif [[ "$mode" == acl ]]; then
        # Authorization on: the SASL user may do only what a test grants. The
        # broker itself and the test's own clients use the PLAINTEXT listener,
        # whose anonymous principal is a super user (loopback, tests only).
        cat >>"$dir/server.properties" <<EOF

listeners=SASL_PLAINTEXT://127.0.0.1:$client_port,INTERNAL://127.0.0.1:$internal_port,CONTROLLER://127.0.0.1:$controller_port
advertised.listeners=SASL_PLAINTEXT://127.0.0.1:$client_port,INTERNAL://127.0.0.1:$internal_port,CONTROLLER://127.0.0.1:$controller_port
listener.security.protocol.map=SASL_PLAINTEXT:SASL_PLAINTEXT,INTERNAL:PLAINTEXT,CONTROLLER:PLAINTEXT
inter.broker.listener.name=INTERNAL
sasl.enabled.mechanisms=SCRAM-SHA-512
listener.name.sasl_plaintext.sasl.enabled.mechanisms=SCRAM-SHA-512
listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer
allow.everyone.if.no.acl.found=false
super.users=User:ANONYMOUS
EOF
    elif [[ "$mode" == proxied ]]; then
        # internal_port: the direct listener; ssl_port: the proxy's port, which
        # PLAINTEXT advertises so that no client connection bypasses the proxy.
        cat >>"$dir/server.properties" <<EOF

listeners=PLAINTEXT://127.0.0.1:$client_port,DIRECT://127.0.0.1:$internal_port,CONTROLLER://127.0.0.1:$controller_port
advertised.listeners=PLAINTEXT://127.0.0.1:$ssl_port,DIRECT://127.0.0.1:$internal_port,CONTROLLER://127.0.0.1:$controller_port
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,DIRECT:PLAINTEXT,CONTROLLER:PLAINTEXT
inter.broker.listener.name=DIRECT
EOF
    else
        cat >>"$dir/server.properties" <<EOF

listeners=PLAINTEXT://127.0.0.1:$client_port,CONTROLLER://127.0.0.1:$controller_port
advertised.listeners=PLAINTEXT://127.0.0.1:$client_port,CONTROLLER://127.0.0.1:$controller_port
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
inter.broker.listener.name=PLAINTEXT
EOF
    fi
}

format_storage() {
    local name="$1" mode="$2"
    local dir
    dir="$(broker_dir "$name")"
    # Share groups (KIP-932) are a preview feature of Kafka 4.1, off unless
    # finalized: on here so the browser's tests meet real share groups.
    local args=(format -t "$(cluster_id)" -c "$dir/server.properties" --standalone --feature share.version=1)
    if [[ "$mode" == sasl || "$mode" == acl ]]; then
        args+=(--add-scram "SCRAM-SHA-512=[name=$SASL_USER,password=$SASL_PASSWORD]"
               --add-scram "SCRAM-SHA-256=[name=$SASL_USER,password=$SASL_PASSWORD]")
    fi
    # The format tool logs through the same config; its lines land in server.log.
    if ! kafka_java -Dkafka.logs.dir="$dir/logs" -Dlog4j2.configurationFile="$HARNESS_DIR/log4j2.properties" \
            kafka.tools.StorageTool "${args[@]}" >"$dir/logs/format.out" 2>&1; then
        cat "$dir/logs/format.out" >&2
        die "formatting the storage of broker '$name' failed"
    fi
}

launch() {
    local name="$1"
    local dir
    dir="$(broker_dir "$name")"
    local client_port internal_port ssl_port mode
    local sasl_ssl_ports
    read -r client_port _ internal_port ssl_port _ <"$dir/ports"
    read -r -a sasl_ssl_ports <"$dir/ports"
    sasl_ssl_ports=("${sasl_ssl_ports[@]:4}")
    mode="$(cat "$dir/mode")"
    rm -f "$dir/bootstrap" "$dir/ssl-bootstrap" "$dir/direct-bootstrap" "$dir/sasl-bootstrap"
    remove_sasl_ssl_bootstraps "$dir"
    # server.log is appended to across restarts: only what this start writes
    # says it is ready (a restarted broker's old "started" line would pass
    # the moment its port opens).
    local log_from
    log_from=$(( $(stat -c %s "$dir/logs/server.log" 2>/dev/null || echo 0) + 1 ))
    LOG_FROM=$log_from
    local opts="$JAVA_OPTS"
    [[ "$mode" == cluster3 ]] && opts="$CLUSTER3_JAVA_OPTS"
    # setsid: the broker must outlive this script and not receive the signals
    # sent to CTest's process group; all fds are redirected so CTest does not
    # wait for the broker's end of its output pipes.
    # shellcheck disable=SC2086
    setsid java $opts -cp "$LIBS/*" \
        -Dkafka.logs.dir="$dir/logs" \
        -Dlog4j2.configurationFile="$HARNESS_DIR/log4j2.properties" \
        -Dmirrordesk.broker="$name" \
        kafka.Kafka "$dir/server.properties" </dev/null >>"$dir/logs/stdout.log" 2>&1 &
    local pid=$!
    echo "$pid" >"$dir/pid"

    local start=$SECONDS
    while :; do
        if ! kill -0 "$pid" 2>/dev/null; then
            fail_tail "$name" "broker '$name' exited during startup"
        fi
        # Not a pipe: under pipefail, tail cut off by grep -q's early exit would fail it.
        if grep -q 'Kafka Server started' < <(tail -c "+$log_from" "$dir/logs/server.log" 2>/dev/null) &&
            port_open "$client_port"; then
            break
        fi
        if (( SECONDS - start >= READY_TIMEOUT )); then
            kill -9 "$pid" 2>/dev/null || true
            rm -f "$dir/pid"
            fail_tail "$name" "broker '$name' not ready after ${READY_TIMEOUT}s"
        fi
        sleep 0.5
    done
    if [[ "$mode" == acl ]]; then
        echo "127.0.0.1:$internal_port" >"$dir/direct-bootstrap"
    fi
    if [[ "$mode" == cluster3 ]]; then
        echo "127.0.0.1:$internal_port" >"$dir/sasl-bootstrap"
    fi
    if [[ "$mode" == proxied ]]; then
        echo "127.0.0.1:$internal_port" >"$dir/direct-bootstrap"
        echo "127.0.0.1:$ssl_port" >"$dir/bootstrap"
        log "broker '$name' ready at 127.0.0.1:$ssl_port through Toxiproxy, direct at 127.0.0.1:$internal_port (pid $pid, $((SECONDS - start))s)"
        return 0
    fi
    if [[ -n "$ssl_port" ]]; then
        echo "127.0.0.1:$ssl_port" >"$dir/ssl-bootstrap"
    fi
    if [[ "$mode" == sasl ]]; then
        write_sasl_ssl_bootstraps "$dir" "${sasl_ssl_ports[@]}"
    fi
    echo "127.0.0.1:$client_port" >"$dir/bootstrap"
    log "broker '$name' ready at 127.0.0.1:$client_port (pid $pid, $((SECONDS - start))s)"
}

fail_tail() {
    local name="$1" msg="$2"
    local dir
    dir="$(broker_dir "$name")"
    # The cause comes first: a broker that gives up logs pages of orderly
    # shutdown after it, and CI keeps only the beginning of a failure.
    if [[ -s "$dir/logs/server.log" ]] &&
        grep -qE '(ERROR|FATAL)' < <(tail -c "+${LOG_FROM:-1}" "$dir/logs/server.log"); then
        log "$msg; its errors:"
        grep -E -A1 '(ERROR|FATAL)' < <(tail -c "+${LOG_FROM:-1}" "$dir/logs/server.log") | head -n 16 >&2
    fi
    log "$msg; last 50 log lines:"
    if [[ -s "$dir/logs/server.log" ]]; then
        tail -n 50 "$dir/logs/server.log" >&2
    fi
    if [[ -s "$dir/logs/stdout.log" ]]; then
        log "stdout/stderr of the JVM:"
        tail -n 50 "$dir/logs/stdout.log" >&2
    fi
    exit 1
}

# start NAME [--sasl | --proxied] [--ports "CLIENT CONTROLLER [INTERNAL SSL SASLSSL WRONGHOST EXPIRED | DIRECT PROXY]"]
cmd_start() {
    local name="" mode=plain ports=""
    while (( $# )); do
        case "$1" in
            --sasl) mode=sasl ;;
            --proxied) mode=proxied ;;
            --acl) mode=acl ;;
            --ports) shift; ports="${1:-}" ;;
            -*) die "unknown option '$1' for start" ;;
            *) [[ -z "$name" ]] || die "start takes one broker name"; name="$1" ;;
        esac
        shift
    done
    [[ -n "$name" ]] || die "start needs a broker name"
    valid_name "$name"
    require_java
    cmd_fetch
    if running "$name"; then
        die "broker '$name' is already running (pid $(broker_pid "$name")); stop it first"
    fi
    local dir
    dir="$(broker_dir "$name")"
    # A fresh start is a fresh cluster: old data would leak topics between runs.
    rm -rf "$dir"
    mkdir -p "$dir/data" "$dir/logs"
    # Toxiproxy picks its API port when it starts: before this broker's ports
    # are picked, or it could take one of them in the seconds before the
    # broker binds it (pick_ports only sees what is bound at the time).
    [[ "$mode" == proxied ]] && cmd_proxy_start
    if [[ -z "$ports" ]]; then
        case "$mode" in plain) ports="$(pick_ports 2)" ;; acl) ports="$(pick_ports 3)" ;; sasl) ports="$(pick_ports 7)" ;; *) ports="$(pick_ports 4)" ;; esac
    fi
    echo "$ports" >"$dir/ports"
    echo "$mode" >"$dir/mode"
    local p
    read -r -a p <<<"$ports"
    if [[ "$mode" == sasl ]]; then
        (( ${#p[@]} == 7 )) || die "a --sasl broker needs seven ports (client, controller, internal, SSL, and SASL_SSL good, wrong host, expired)"
        make_tls "$name"
    elif [[ "$mode" == proxied ]]; then
        (( ${#p[@]} == 4 )) || die "a --proxied broker needs four ports (client, controller, direct, proxy)"
        proxy_create "$name" "127.0.0.1:${p[3]}" "127.0.0.1:${p[0]}"
    fi
    write_config "$name" "$mode" "${p[0]}" "${p[1]}" "${p[2]:-}" "${p[3]:-}" "${p[@]:4}"
    format_storage "$name" "$mode"
    launch "$name"
}

cmd_restart() {
    local name="${1:-}"
    [[ -n "$name" ]] || die "restart needs a broker name"
    valid_name "$name"
    local dir
    dir="$(broker_dir "$name")"
    [[ -f "$dir/server.properties" && -f "$dir/ports" ]] || die "broker '$name' was never started in $STATE"
    require_java
    if running "$name"; then
        cmd_stop "$name"
    fi
    launch "$name"
}

cmd_stop() {
    local name="${1:-}"
    [[ -n "$name" ]] || die "stop needs a broker name"
    valid_name "$name"
    local dir pid
    dir="$(broker_dir "$name")"
    if pid="$(broker_pid "$name")"; then
        kill -TERM "$pid" 2>/dev/null || true
        local start=$SECONDS
        while pid_alive "$pid"; do
            if (( SECONDS - start >= STOP_TIMEOUT )); then
                log "broker '$name' did not stop in ${STOP_TIMEOUT}s; killing it"
                kill -KILL "$pid" 2>/dev/null || true
                break
            fi
            sleep 0.2
        done
        wait_gone "$pid"
        log "broker '$name' stopped"
    fi
    rm -f "$dir/pid" "$dir/bootstrap" "$dir/ssl-bootstrap" "$dir/direct-bootstrap" "$dir/sasl-bootstrap"
    remove_sasl_ssl_bootstraps "$dir"
}

# Alive and not a zombie: a broker outlives the harness that launched it, so
# its parent is init, and an init that reaps late (some container inits take
# seconds) leaves an ended broker answering kill -0 meanwhile.
pid_alive() {
    local state
    kill -0 "$1" 2>/dev/null || return 1
    state="$(sed -n 's/^State:[[:space:]]*\([A-Z]\).*/\1/p' "/proc/$1/status" 2>/dev/null)"
    [[ "$state" != Z && -n "$state" ]]
}

wait_gone() {
    local i
    for ((i = 0; i < 100; i++)); do
        pid_alive "$1" || return 0
        sleep 0.1
    done
}

cmd_kill() {
    local name="${1:-}"
    [[ -n "$name" ]] || die "kill needs a broker name"
    valid_name "$name"
    local pid
    pid="$(broker_pid "$name")" || die "broker '$name' is not running"
    kill -KILL "$pid"
    wait_gone "$pid"
    # The bootstrap file stays: the broker keeps its address for restart.
    rm -f "$(broker_dir "$name")/pid"
    log "broker '$name' killed (pid $pid)"
}

# SIGSTOP / SIGCONT: a broker (and its KRaft controller, the same JVM) that
# stops answering, then runs again. Stopped longer than the broker session
# (broker.session.timeout.ms), the controller fences its own broker when it
# runs again, until the broker's next heartbeat: meanwhile metadata lists no
# broker at all, as after a long GC pause or a stalled VM.
cmd_signal() { # pause|resume NAME
    local cmd="$1" name="${2:-}" sig=STOP verb=paused
    [[ "$cmd" == resume ]] && sig=CONT verb=resumed
    [[ -n "$name" ]] || die "$cmd needs a broker name"
    valid_name "$name"
    local pid
    pid="$(broker_pid "$name")" || die "broker '$name' is not running"
    kill "-$sig" "$pid"
    log "broker '$name' $verb (pid $pid)"
}

# Prints a broker's state file: COMMAND NAME FILE WHY-MISSING
print_state_file() {
    local cmd="$1" name="${2:-}" file="$3" why="$4"
    [[ -n "$name" ]] || die "$cmd needs a broker name"
    valid_name "$name"
    local f
    f="$(broker_dir "$name")/$file"
    [[ -f "$f" ]] || die "broker '$name' has $why"
    cat "$f"
}

cmd_bootstrap() {
    print_state_file bootstrap "${1:-}" bootstrap "no bootstrap address (not started in $STATE)"
}

cmd_ssl_bootstrap() {
    print_state_file ssl-bootstrap "${1:-}" ssl-bootstrap \
        "no SSL listener (not a --sasl broker, or not started in $STATE)"
}

brokers() {
    local d
    [[ -d "$STATE" ]] || return 0
    for d in "$STATE"/*/; do
        [[ -f "$d/ports" ]] && basename "$d"
    done
    return 0
}

cmd_status() {
    local name any=0
    for name in $(brokers); do
        any=1
        local pid state="stopped" bootstrap="-"
        if pid="$(broker_pid "$name")"; then state="running pid $pid"; fi
        [[ -f "$(broker_dir "$name")/bootstrap" ]] && bootstrap="$(cat "$(broker_dir "$name")/bootstrap")"
        printf '%-10s %-6s %-20s %s\n' "$name" "$(cat "$(broker_dir "$name")/mode")" "$state" "$bootstrap"
    done
    (( any )) || echo "no brokers in $STATE"
    registry_status
}

cmd_direct_bootstrap() {
    print_state_file direct-bootstrap "${1:-}" direct-bootstrap \
        "no direct listener (not a --proxied broker, or not started in $STATE)"
}

cmd_stop_all() {
    local name pids=()
    for name in $(brokers); do
        cmd_stop "$name" &
        pids+=($!)
    done
    local rc=0 p
    cmd_registry_stop_all &
    pids+=($!)
    for p in "${pids[@]}"; do wait "$p" || rc=1; done
    cmd_proxy_stop || rc=1
    for name in $(clusters3); do
        rm -f "$(broker_dir "$name")/bootstrap" "$(broker_dir "$name")/sasl-bootstrap"
    done
    return $rc
}

# Waits for the starts run in the background; when one failed, stops
# whatever started and exits. WHAT names the command in the message.
wait_started() { # WHAT PID...
    local what="$1" rc=0 pid
    shift
    for pid in "$@"; do
        wait "$pid" || rc=1
    done
    if ((rc != 0)); then
        log "$what failed; stopping whatever started"
        cmd_stop_all || true
        exit 1
    fi
}

cmd_start_all() {
    require_java
    cmd_fetch
    cmd_fetch_registry
    # Leftovers of an interrupted run would hold their ports and old topics.
    cmd_stop_all || true
    local all
    all=($(pick_ports 14))
    local start=$SECONDS
    cmd_start source --ports "${all[0]} ${all[1]}" &
    local p1=$!
    cmd_start target --ports "${all[2]} ${all[3]}" &
    local p2=$!
    cmd_start sasl --sasl --ports "${all[*]:4:7}" &
    local p3=$!
    cmd_registry_start "" "${all[11]}" "${all[12]}" &
    local p4=$!
    # The tests that compare two registries need a second, independent one;
    # started beside the rest, it costs memory (about 240 MB) rather than time.
    cmd_registry_start second "${all[13]}" &
    local p5=$!
    wait_started start-all "$p1" "$p2" "$p3" "$p4" "$p5"
    log "all brokers and the registries ready in $((SECONDS - start))s (state in $STATE)"
}

# "source" and "target" only: a second lane of tests that need nothing else
# runs beside the first on brokers of its own (tests/CMakeLists.txt).
cmd_start_pair() {
    require_java
    cmd_fetch
    cmd_stop_all || true
    local all
    all=($(pick_ports 4))
    local start=$SECONDS
    cmd_start source --ports "${all[0]} ${all[1]}" &
    local p1=$!
    cmd_start target --ports "${all[2]} ${all[3]}" &
    wait_started start-pair "$p1" "$!"
    log "source and target ready in $((SECONDS - start))s (state in $STATE)"
}

# --- three-node clusters ----------------------------------------------------

cluster3_node() { printf '%s-%s' "$1" "$2"; }

# Names of the three-node clusters of the state dir.
clusters3() {
    local d
    [[ -d "$STATE" ]] || return 0
    for d in "$STATE"/*/; do
        [[ -f "$d/cluster3" ]] && basename "$d"
    done
    return 0
}

# Formats node IDX of cluster NAME: one cluster id for the three, the static
# voters of the config, and the SCRAM users.
format_cluster3_node() { # NAME IDX CLUSTER-ID
    local node dir user
    node="$(cluster3_node "$1" "$2")"
    dir="$(broker_dir "$node")"
    local args=(format -t "$3" -c "$dir/server.properties")
    for user in "${CLUSTER3_USERS[@]}"; do
        args+=(--add-scram "SCRAM-SHA-512=[name=$user,password=$user-test-secret]")
    done
    if ! kafka_java -Dkafka.logs.dir="$dir/logs" -Dlog4j2.configurationFile="$HARNESS_DIR/log4j2.properties" \
            kafka.tools.StorageTool "${args[@]}" >"$dir/logs/format.out" 2>&1; then
        cat "$dir/logs/format.out" >&2
        die "formatting the storage of node '$node' failed"
    fi
}

# start_cluster3 NAME PORT*9: three nodes, each "PLAINTEXT CONTROLLER SASL".
# All three start together: none is ready before a quorum of two has elected
# a controller and unfenced it.
#
# Cost, measured on the 2-core test machine (Kafka 4.1.1, Java 17, the heap
# options of CLUSTER3_JAVA_OPTS): one cluster is ready 9-10 s after the command
# (the three formats in parallel, ~4 s, then the nodes ~6 s), two in parallel
# in 16 s beside a build, 48 s when the other lanes' fixtures start at the same
# time. RSS per node: 150-160 MB once started, 165-235 MB after the four fault
# scenarios of tst_cluster3_faults: one cluster ~0.5-0.7 GB, two ~1-1.4 GB.
# stop-all stops both (six nodes in parallel) in 8-10 s.
start_cluster3() {
    local name="$1"
    shift
    local ports=("$@")
    (( ${#ports[@]} == 9 )) || die "a three-node cluster needs nine ports"
    local cdir i node dir voters=""
    cdir="$(broker_dir "$name")"
    rm -rf "$cdir"
    mkdir -p "$cdir"
    for i in 0 1 2; do
        voters+="${voters:+,}$i@127.0.0.1:${ports[3 * i + 1]}"
    done
    local cid pids=()
    cid="$(cluster_id)"
    for i in 0 1 2; do
        node="$(cluster3_node "$name" "$i")"
        dir="$(broker_dir "$node")"
        rm -rf "$dir"
        mkdir -p "$dir/data" "$dir/logs"
        echo "${ports[3 * i]} ${ports[3 * i + 1]} ${ports[3 * i + 2]}" >"$dir/ports"
        echo cluster3 >"$dir/mode"
        sed -e "s|@NODE_ID@|$i|g" -e "s|@VOTERS@|$voters|g" -e "s|@NAME@|$name|g" \
            -e "s|@CLIENT_PORT@|${ports[3 * i]}|g" -e "s|@CONTROLLER_PORT@|${ports[3 * i + 1]}|g" \
            -e "s|@SASL_PORT@|${ports[3 * i + 2]}|g" -e "s|@DATA_DIR@|$dir/data|g" \
            "$HARNESS_DIR/cluster3.properties.in" >"$dir/server.properties"
        format_cluster3_node "$name" "$i" "$cid" &
        pids+=($!)
    done
    local p rc=0
    for p in "${pids[@]}"; do wait "$p" || rc=1; done
    (( rc == 0 )) || die "formatting cluster '$name' failed"
    echo 3 >"$cdir/cluster3"
    local start=$SECONDS
    pids=()
    for i in 0 1 2; do
        launch "$(cluster3_node "$name" "$i")" &
        pids+=($!)
    done
    for p in "${pids[@]}"; do wait "$p" || rc=1; done
    (( rc == 0 )) || die "cluster '$name' did not start"
    local plain=() sasl=()
    for i in 0 1 2; do
        plain+=("127.0.0.1:${ports[3 * i]}")
        sasl+=("127.0.0.1:${ports[3 * i + 2]}")
    done
    (IFS=,; echo "${sasl[*]}") >"$cdir/sasl-bootstrap"
    (IFS=,; echo "${plain[*]}") >"$cdir/bootstrap"
    log "cluster '$name' ready at $(cat "$cdir/bootstrap") (SASL $(cat "$cdir/sasl-bootstrap"), $((SECONDS - start))s)"
}

cmd_start_cluster3() {
    (( $# )) || die "start-cluster3 needs one or more cluster names"
    local name i
    for name in "$@"; do
        valid_name "$name"
    done
    require_java
    cmd_fetch
    # Leftovers of an interrupted run would hold their ports and old topics.
    for name in "$@"; do
        for i in 0 1 2; do
            cmd_stop "$(cluster3_node "$name" "$i")" &
        done
    done
    wait
    local all pids=() k=0 start=$SECONDS
    all=($(pick_ports $((9 * $#))))
    for name in "$@"; do
        start_cluster3 "$name" "${all[@]:k:9}" &
        pids+=($!)
        k=$((k + 9))
    done
    wait_started start-cluster3 "${pids[@]}"
    log "clusters $* ready in $((SECONDS - start))s (state in $STATE)"
}

# NAME IDX: a node of a cluster started in this state dir.
cluster3_node_arg() {
    local cmd="$1" name="${2:-}" idx="${3:-}"
    [[ -n "$name" && "$idx" =~ ^[0-2]$ ]] || die "$cmd needs a cluster name and a node index 0, 1 or 2"
    valid_name "$name"
    [[ -f "$(broker_dir "$name")/cluster3" ]] || die "no three-node cluster '$name' in $STATE"
    cluster3_node "$name" "$idx"
}

cmd_kill_node() {
    local node
    node="$(cluster3_node_arg kill-node "$@")"
    cmd_kill "$node"
}

cmd_stop_node() {
    local node pid
    node="$(cluster3_node_arg stop-node "$@")"
    pid="$(broker_pid "$node")" || die "node '$node' is not running"
    kill -TERM "$pid" 2>/dev/null || true
    local start=$SECONDS
    while pid_alive "$pid"; do
        if (( SECONDS - start >= STOP_TIMEOUT )); then
            log "node '$node' did not stop in ${STOP_TIMEOUT}s; killing it"
            kill -KILL "$pid" 2>/dev/null || true
            break
        fi
        sleep 0.2
    done
    wait_gone "$pid"
    # As after kill-node: the files stay, so start-node brings it back as it was.
}

cmd_start_node() {
    local node
    node="$(cluster3_node_arg start-node "$@")"
    if running "$node"; then
        die "node '$node' is running (pid $(broker_pid "$node")): kill-node it first"
    fi
    require_java
    launch "$node"
}

cmd_sasl_bootstrap() {
    print_state_file sasl-bootstrap "${1:-}" sasl-bootstrap \
        "no SASL_PLAINTEXT listener list (not a three-node cluster, or not started in $STATE)"
}

main() {
    local cmd="${1:-}"
    [[ -n "$cmd" ]] || usage
    shift
    case "$cmd" in
        fetch) cmd_fetch; cmd_fetch_registry; cmd_fetch_toxiproxy ;;
        start) cmd_start "$@" ;;
        stop) cmd_stop "$@" ;;
        kill) cmd_kill "$@" ;;
        restart) cmd_restart "$@" ;;
        pause | resume) cmd_signal "$cmd" "$@" ;;
        start-all) cmd_start_all ;;
        start-pair) cmd_start_pair ;;
        start-cluster3) cmd_start_cluster3 "$@" ;;
        kill-node) cmd_kill_node "$@" ;;
        stop-node) cmd_stop_node "$@" ;;
        start-node) cmd_start_node "$@" ;;
        sasl-bootstrap) cmd_sasl_bootstrap "$@" ;;
        stop-all) cmd_stop_all ;;
        bootstrap) cmd_bootstrap "$@" ;;
        ssl-bootstrap) cmd_ssl_bootstrap "$@" ;;
        sasl-ssl-bootstrap) cmd_sasl_ssl_bootstrap "$@" ;;
        direct-bootstrap) cmd_direct_bootstrap "$@" ;;
        toxic) cmd_toxic "$@" ;;
        proxy-start) cmd_proxy_start ;;
        proxy-stop) cmd_proxy_stop ;;
        registry-start) cmd_registry_start "$@" ;;
        registry-stop) cmd_registry_stop "$@" ;;
        registry-url) cmd_registry_url "$@" ;;
        status) cmd_status ;;
        -h|--help|help) usage ;;
        *) log "unknown command '$cmd'"; usage ;;
    esac
}

main "$@"
