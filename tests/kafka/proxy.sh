# Toxiproxy for network-fault tests; sourced by harness.sh (uses its STATE,
# log, die, pick_ports and valid_name).
#
# A broker started with `start NAME --proxied` has two client listeners: the
# proxied one (its bootstrap file; every address it advertises is the proxy's,
# so all of a client's connections pass through Toxiproxy) and a direct one
# (direct-bootstrap) for the test's own writers and readers, which must not
# suffer the faults they measure. The broker talks to itself on the direct one.

TOXIPROXY_VERSION=2.5.0
TOXIPROXY_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/mirrordesk/toxiproxy-$TOXIPROXY_VERSION"
TOXIPROXY_BIN="$TOXIPROXY_DIR/toxiproxy-server"

proxy_dir() { printf '%s/toxiproxy' "$STATE"; }

cmd_fetch_toxiproxy() {
    [[ -x "$TOXIPROXY_BIN" ]] && return 0
    command -v go >/dev/null || die "go not found: install Go (installer/deps.sh installs golang-go) to build Toxiproxy"
    mkdir -p "$TOXIPROXY_DIR"
    exec 7>"$TOXIPROXY_DIR/.fetch.lock"
    flock 7
    if [[ ! -x "$TOXIPROXY_BIN" ]]; then
        log "building Toxiproxy $TOXIPROXY_VERSION with go install into $TOXIPROXY_DIR"
        local tmp="$TOXIPROXY_DIR/bin.tmp.$$"
        rm -rf "$tmp"
        GOBIN="$tmp" go install "github.com/Shopify/toxiproxy/v2/cmd/server@v$TOXIPROXY_VERSION" ||
            { rm -rf "$tmp"; die "go install of Toxiproxy $TOXIPROXY_VERSION failed (see above)"; }
        mv "$tmp/server" "$TOXIPROXY_BIN"
        rm -rf "$tmp"
    fi
    exec 7>&-
}

proxy_api() {
    local f
    f="$(proxy_dir)/api"
    [[ -f "$f" ]] || return 1
    cat "$f"
}

proxy_pid() {
    local f pid
    f="$(proxy_dir)/pid"
    [[ -f "$f" ]] || return 1
    pid="$(cat "$f")"
    [[ "$pid" =~ ^[0-9]+$ ]] || return 1
    tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q -- "$TOXIPROXY_BIN" || return 1
    printf '%s' "$pid"
}

# curl against the API; fails (with the answer) on any HTTP error.
proxy_call() {
    local method="$1" path="$2" body="${3:-}" api out
    api="$(proxy_api)" || die "Toxiproxy is not running in $STATE (harness.sh proxy-start)"
    if ! out="$(curl -sS --max-time 10 -X "$method" -H 'Content-Type: application/json' \
            ${body:+--data "$body"} -w '\n%{http_code}' "http://$api$path" 2>&1)"; then
        die "Toxiproxy $method $path: $out"
    fi
    local code="${out##*$'\n'}"
    [[ "$code" =~ ^2 ]] || die "Toxiproxy $method $path answered $code: ${out%$'\n'*}"
    printf '%s' "${out%$'\n'*}"
}

cmd_proxy_start() {
    if proxy_pid >/dev/null; then
        return 0
    fi
    cmd_fetch_toxiproxy
    local dir port
    dir="$(proxy_dir)"
    mkdir -p "$dir"
    rm -f "$dir/api" "$dir/pid"
    port="$(pick_ports 1)"
    setsid "$TOXIPROXY_BIN" -host 127.0.0.1 -port "$port" </dev/null >>"$dir/toxiproxy.log" 2>&1 &
    echo $! >"$dir/pid"
    local i
    for ((i = 0; i < 100; i++)); do
        if curl -sf --max-time 1 "http://127.0.0.1:$port/version" >/dev/null 2>&1; then
            echo "127.0.0.1:$port" >"$dir/api"
            log "Toxiproxy ready at 127.0.0.1:$port"
            return 0
        fi
        sleep 0.1
    done
    tail -n 20 "$dir/toxiproxy.log" >&2 || true
    die "Toxiproxy did not answer on 127.0.0.1:$port"
}

cmd_proxy_stop() {
    local pid
    if pid="$(proxy_pid)"; then
        kill -TERM "$pid" 2>/dev/null || true
        wait_gone "$pid"
        kill -KILL "$pid" 2>/dev/null || true
        log "Toxiproxy stopped"
    fi
    rm -f "$(proxy_dir)/pid" "$(proxy_dir)/api"
}

# A proxy NAME listening on LISTEN for UPSTREAM, replacing an earlier one.
proxy_create() {
    local name="$1" listen="$2" upstream="$3"
    curl -sS --max-time 10 -X DELETE "http://$(proxy_api)/proxies/$name" >/dev/null 2>&1 || true
    proxy_call POST /proxies "{\"name\":\"$name\",\"listen\":\"$listen\",\"upstream\":\"$upstream\",\"enabled\":true}" >/dev/null
}

# toxic NAME add TYPE STREAM ATTRIBUTES-JSON   e.g. toxic target add latency downstream '{"latency":100,"jitter":50}'
# toxic NAME clear                             every toxic of NAME removed, the proxy enabled
# toxic NAME disable|enable                    refuse (and cut) every connection / accept again
cmd_toxic() {
    local name="${1:-}" action="${2:-}"
    [[ -n "$name" && -n "$action" ]] || die "toxic needs a broker name and an action (add, clear, disable, enable)"
    valid_name "$name"
    case "$action" in
        add)
            local type="${3:-}" stream="${4:-}" attributes="${5:-}"
            [[ -n "$type" && ( "$stream" == upstream || "$stream" == downstream ) && -n "$attributes" ]] ||
                die "toxic NAME add TYPE upstream|downstream ATTRIBUTES-JSON"
            proxy_call POST "/proxies/$name/toxics" \
                "{\"name\":\"${type}_$stream\",\"type\":\"$type\",\"stream\":\"$stream\",\"toxicity\":1.0,\"attributes\":$attributes}" >/dev/null
            log "toxic $type ($stream, $attributes) on '$name'"
            ;;
        clear)
            local toxic
            for toxic in $(proxy_call GET "/proxies/$name/toxics" |
                    python3 -c 'import json, sys; print("\n".join(t["name"] for t in json.load(sys.stdin)))'); do
                proxy_call DELETE "/proxies/$name/toxics/$toxic" >/dev/null
            done
            proxy_call POST "/proxies/$name" '{"enabled":true}' >/dev/null
            log "toxics of '$name' cleared"
            ;;
        disable | enable)
            proxy_call POST "/proxies/$name" "{\"enabled\":$([[ "$action" == enable ]] && echo true || echo false)}" >/dev/null
            log "proxy of '$name' ${action}d"
            ;;
        *) die "unknown toxic action '$action' (add, clear, disable, enable)" ;;
    esac
}
