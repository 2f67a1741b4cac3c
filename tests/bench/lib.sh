# Shared by the benchmark scripts (sourced after they set HERE, ROOT and BENCH_NAME):
# messages, option checks and the two harness brokers they run on.

die() { printf '%s: error: %s\n' "$BENCH_NAME" "$*" >&2; exit 1; }
log() { printf '[%(%H:%M:%S)T] %s\n' -1 "$*" >&2; }

# --help: the script's header comment, from its second line to the first line that is
# not a comment.
usage() { awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "${BASH_SOURCE[-1]}"; }

# require_positive VAR...: each variable holds a positive integer.
require_positive() {
    local v
    for v in "$@"; do
        [[ "${!v}" =~ ^[0-9]+$ && "${!v}" -gt 0 ]] || die "${v,,} must be a positive integer, got '${!v}'"
    done
}

HARNESS="$ROOT/tests/kafka/harness.sh"
# The brokers as kafka-server-start.sh runs them (1 GB heap, G1, full JIT), not with the
# harness's C1-only test setting: a broker must not be the narrowest pipe by design.
BENCH_BROKER_OPTS="${MIRRORDESK_BENCH_BROKER_OPTS:--Xms1g -Xmx1g -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -Djava.awt.headless=true}"

# start_brokers LOGDIR: starts "source" and "target" in $MIRRORDESK_KAFKA_STATE (set it
# to a private directory first) and sets SRC and TGT to their bootstrap addresses.
start_brokers() {
    local dir="$1" hs ht
    export MIRRORDESK_KAFKA_JAVA_OPTS="$BENCH_BROKER_OPTS"
    bash "$HARNESS" fetch >/dev/null
    bash "$HARNESS" start source >"$dir/harness-source.log" 2>&1 &
    hs=$!
    bash "$HARNESS" start target >"$dir/harness-target.log" 2>&1 &
    ht=$!
    wait $hs || { cat "$dir/harness-source.log" >&2; die "source broker did not start"; }
    wait $ht || { cat "$dir/harness-target.log" >&2; die "target broker did not start"; }
    SRC="$(bash "$HARNESS" bootstrap source)"
    TGT="$(bash "$HARNESS" bootstrap target)"
}

stop_brokers() { bash "$HARNESS" stop-all >/dev/null 2>&1 || true; }
