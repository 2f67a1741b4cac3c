# Apicurio Registry (its Confluent-compatible API) for the schema registry
# tests; sourced by harness.sh (uses its STATE, READY_TIMEOUT, STOP_TIMEOUT,
# HARNESS_DIR, log, die, pick_ports, require_java and wait_gone).
#
# In-memory storage (Apicurio's default): every start is an empty registry.
# The default instance lives in $STATE/registry/: pid, port, ssl-port, logs/,
# url and https-url (the ccompat base URL over http and over https, written
# only once the registry answers on both, removed by stop) and tls/ (tls.sh's
# files: the https listener serves broker.pem for 127.0.0.1 and localhost,
# signed by tls/ca.pem; tls/other-ca.pem signed nothing of it). One JVM serves
# both, so what a test registers over http reads back over https.
#
# A named instance (registry-start NAME) lives in $STATE/registry-NAME/ and
# serves http only (pid, port, logs/, url): a second, independent registry for
# the tests that compare two (its ids mean other schemas than the default's).
# Every instance is stopped by its own pid only.

APICURIO_VERSION=3.0.9
APICURIO_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/mirrordesk/apicurio-$APICURIO_VERSION"
APICURIO_JAR="$APICURIO_DIR/app/apicurio-registry-app-$APICURIO_VERSION-runner.jar"
# One small JVM beside three brokers on two cores.
REGISTRY_JAVA_OPTS="${MIRRORDESK_REGISTRY_JAVA_OPTS:--Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:+ExitOnOutOfMemoryError}"

# registry_dir [NAME]: the default instance without a name.
registry_dir() {
    if [[ -z "${1:-}" ]]; then printf '%s/registry' "$STATE"; else printf '%s/registry-%s' "$STATE" "$1"; fi
}

registry_valid_name() {
    [[ -z "$1" || "$1" =~ ^[a-z0-9][a-z0-9-]{0,30}$ ]] || die "invalid registry name '$1' (a-z, 0-9, -)"
}

# The names of the instances that have a directory in the state ("" is the default one).
registry_names() {
    local d
    [[ -d "$(registry_dir)" ]] && printf '\n'
    for d in "$STATE"/registry-*; do
        [[ -d "$d" ]] && printf '%s\n' "${d##*/registry-}"
    done
    return 0
}

cmd_fetch_registry() {
    [[ -f "$APICURIO_DIR/.complete" && -f "$APICURIO_JAR" ]] && return 0
    command -v mvn >/dev/null || die "mvn not found: install Maven (installer/deps.sh does)"
    mkdir -p "$APICURIO_DIR"
    exec 6>"$APICURIO_DIR/.fetch.lock"
    flock 6
    if [[ ! -f "$APICURIO_DIR/.complete" || ! -f "$APICURIO_JAR" ]]; then
        log "fetching Apicurio Registry $APICURIO_VERSION with Maven into $APICURIO_DIR"
        local tmp="$APICURIO_DIR/tmp.$$"
        rm -rf "$tmp"
        mkdir -p "$tmp/app"
        # dependency:copy of the one artifact: its parent POM is not on Maven
        # Central, so resolving it as a dependency (copy-dependencies) fails.
        # The Kafka POM only gives Maven a project to run in.
        if ! mvn -q -B -Dstyle.color=never -f "$HARNESS_DIR/pom.xml" dependency:copy \
                -Dartifact="io.apicurio:apicurio-registry-app:$APICURIO_VERSION:tar.gz:all" \
                -DoutputDirectory="$tmp"; then
            rm -rf "$tmp"
            die "Maven could not fetch Apicurio Registry $APICURIO_VERSION (see its output above)"
        fi
        tar -xzf "$tmp/apicurio-registry-app-$APICURIO_VERSION-all.tar.gz" -C "$tmp/app" ||
            { rm -rf "$tmp"; die "unpacking Apicurio Registry $APICURIO_VERSION failed"; }
        rm -f "$tmp/apicurio-registry-app-$APICURIO_VERSION-all.tar.gz"
        [[ -f "$tmp/app/$(basename "$APICURIO_JAR")" ]] || { rm -rf "$tmp"; die "the Apicurio tarball has no runner jar"; }
        rm -rf "$APICURIO_DIR/app"
        mv "$tmp/app" "$APICURIO_DIR/app"
        rm -rf "$tmp"
        touch "$APICURIO_DIR/.complete"
    fi
    exec 6>&-
}

# registry_pid [NAME]
registry_pid() {
    local f pid dir
    dir="$(registry_dir "${1:-}")"
    f="$dir/pid"
    [[ -f "$f" ]] || return 1
    pid="$(cat "$f")"
    [[ "$pid" =~ ^[0-9]+$ ]] || return 1
    # A recycled pid is not ours: it must still be this instance's registry
    # (the space ends the value: registry is a prefix of registry-NAME).
    tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q -- "-Dmirrordesk.registry=$dir " || return 1
    printf '%s' "$pid"
}

# registry_answers URL [curl options...]
registry_answers() {
    local url="$1"
    shift
    curl -sf -o /dev/null --max-time 5 "$@" "$url/subjects"
}

# registry-start [NAME [PORT [SSL_PORT]]]: start-all passes ports picked with
# the brokers' so that two parallel picks cannot choose the same one. The
# default instance (no NAME, or "") needs both ports, a named one only PORT.
cmd_registry_start() {
    local name="${1:-}" port="${2:-}" ssl_port="${3:-}"
    registry_valid_name "$name"
    require_java
    cmd_fetch_registry
    command -v curl >/dev/null || die "curl not found (needed to see the registry come up)"
    local dir what="the registry"
    dir="$(registry_dir "$name")"
    [[ -n "$name" ]] && what="registry $name"
    if registry_pid "$name" >/dev/null; then
        die "$what is already running (pid $(registry_pid "$name")); stop it first"
    fi
    rm -rf "$dir"
    mkdir -p "$dir/logs"
    local tls_opts=()
    if [[ -z "$name" ]]; then
        if [[ -z "$port" || -z "$ssl_port" ]]; then
            read -r port ssl_port <<<"$(pick_ports 2)"
        fi
        echo "$ssl_port" >"$dir/ssl-port"
        make_tls_in "$dir/tls" "$dir/logs/tls.out" "the registry"
        tls_opts=(-Dquarkus.http.ssl-port="$ssl_port" -Dquarkus.http.ssl.certificate.files="$dir/tls/broker.pem"
            -Dquarkus.http.ssl.certificate.key-files="$dir/tls/broker.key")
    else
        # http only: the https cases use the default instance.
        [[ -n "$port" ]] || port="$(pick_ports 1)"
    fi
    echo "$port" >"$dir/port"
    local url="http://127.0.0.1:$port/apis/ccompat/v7" https_url=""
    [[ -z "$name" ]] && https_url="https://127.0.0.1:$ssl_port/apis/ccompat/v7"
    # Detached like the brokers (see launch in harness.sh); run in its own
    # directory so nothing it writes lands in the caller's.
    # shellcheck disable=SC2086  # the options are a list of words on purpose
    (cd "$dir" && exec setsid java $REGISTRY_JAVA_OPTS -Dmirrordesk.registry="$dir" \
        -Dquarkus.http.host=127.0.0.1 -Dquarkus.http.port="$port" "${tls_opts[@]}" \
        -jar "$APICURIO_JAR" </dev/null >>"$dir/logs/stdout.log" 2>&1) &
    local pid=$!
    echo "$pid" >"$dir/pid"
    local start=$SECONDS
    until registry_answers "$url" && { [[ -z "$https_url" ]] || registry_answers "$https_url" --cacert "$dir/tls/ca.pem"; }; do
        if ! kill -0 "$pid" 2>/dev/null; then
            log "$what exited during startup; last 50 log lines:"
            tail -n 50 "$dir/logs/stdout.log" >&2
            rm -f "$dir/pid"
            exit 1
        fi
        if (( SECONDS - start >= READY_TIMEOUT )); then
            kill -9 "$pid" 2>/dev/null || true
            rm -f "$dir/pid"
            log "$what did not answer after ${READY_TIMEOUT}s; last 50 log lines:"
            tail -n 50 "$dir/logs/stdout.log" >&2
            exit 1
        fi
        sleep 0.5
    done
    echo "$url" >"$dir/url"
    [[ -n "$https_url" ]] && echo "$https_url" >"$dir/https-url"
    log "$what ready at $url${https_url:+ and $https_url} (pid $pid, $((SECONDS - start))s)"
}

# registry-stop [NAME]
cmd_registry_stop() {
    local name="${1:-}" dir pid what="registry"
    registry_valid_name "$name"
    dir="$(registry_dir "$name")"
    [[ -n "$name" ]] && what="registry $name"
    [[ -d "$dir" ]] || return 0
    if pid="$(registry_pid "$name")"; then
        kill -TERM "$pid" 2>/dev/null || true
        local start=$SECONDS
        while pid_alive "$pid"; do
            if (( SECONDS - start >= STOP_TIMEOUT )); then
                log "$what did not stop in ${STOP_TIMEOUT}s; killing it"
                kill -KILL "$pid" 2>/dev/null || true
                break
            fi
            sleep 0.2
        done
        wait_gone "$pid"
        log "$what stopped"
    fi
    rm -f "$dir/pid" "$dir/url" "$dir/https-url"
}

# Every instance of the state dir, in parallel.
cmd_registry_stop_all() {
    local name pids=() rc=0 p
    while IFS= read -r name; do
        cmd_registry_stop "$name" &
        pids+=($!)
    done < <(registry_names)
    for p in "${pids[@]}"; do wait "$p" || rc=1; done
    return $rc
}

# registry-url [NAME] [--https]
cmd_registry_url() {
    local name="" https=0 arg f
    for arg in "$@"; do
        if [[ "$arg" == --https ]]; then https=1; else name="$arg"; fi
    done
    registry_valid_name "$name"
    f="$(registry_dir "$name")/url"
    (( https )) && f="$(registry_dir "$name")/https-url"
    [[ -f "$f" ]] || die "no registry URL in $f (not started, or no https for a named registry)"
    cat "$f"
}

registry_status() {
    local name pid state url label
    while IFS= read -r name; do
        state="stopped" url="-" label="registry${name:+-$name}"
        if pid="$(registry_pid "$name")"; then state="running pid $pid"; fi
        [[ -f "$(registry_dir "$name")/url" ]] && url="$(cat "$(registry_dir "$name")/url")"
        printf '%-10s %-6s %-20s %s\n' "$label" apicurio "$state" "$url"
    done < <(registry_names)
}
