# Shared by the benchmark scripts (sourced after they set HERE, ROOT and BENCH_NAME):
# messages, option checks, the two harness brokers they run on and the results file.
# shellcheck shell=bash
# shellcheck disable=SC2034 # sets SRC, TGT, MD, BK and TIMEFMT for the script that sources it

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

# SIZE has room for the send time (8 bytes) that bench_kafka load writes into each value.
require_send_time_size() {
    ((SIZE >= 8)) || die "size must be at least 8 bytes (bench_kafka embeds the send time)"
}

# Sets MD and BK to mirrordesk and bench_kafka in $BUILD; dies, saying how to build them,
# when one is missing.
require_md_and_bk() {
    MD="$BUILD/app/mirrordesk"
    BK="$BUILD/tests/bench/bench_kafka"
    [[ -x "$MD" ]] || die "$MD not built (cmake --build $BUILD --target mirrordesk bench_kafka)"
    [[ -x "$BK" ]] || die "$BK not built (cmake --build $BUILD --target bench_kafka)"
}

# What timing runs (/usr/bin/time) and starting brokers need.
require_time_and_java() {
    [[ -x /usr/bin/time ]] || die "/usr/bin/time is missing (apt-get install time)"
    command -v java >/dev/null || die "java not found"
}

HARNESS="$ROOT/tests/kafka/harness.sh"
# The Kafka jars the harness fetches (its pom's version), for Kafka's own tools.
KAFKA_VERSION="$(sed -n 's:.*<kafka.version>\(.*\)</kafka.version>.*:\1:p' "$ROOT/tests/kafka/pom.xml")"
KAFKA_LIBS="${XDG_CACHE_HOME:-$HOME/.cache}/mirrordesk/kafka-$KAFKA_VERSION/libs"
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

# renice_brokers N: both broker JVMs, every thread (niceness is per thread on Linux; threads
# made later inherit their maker's), at niceness N: the jobs' threads run at +10, so with
# N=10 the window's UI thread is the only one at 0 and what it waits for is its own work.
renice_brokers() {
    local nice="$1" name pid task
    for name in source target; do
        pid="$(cat "$MIRRORDESK_KAFKA_STATE/$name/pid" 2>/dev/null)" || continue
        for task in /proc/"$pid"/task/*; do
            renice -n "$nice" -p "${task##*/}" >/dev/null 2>&1 || true
        done
    done
}

# CPU ticks (user + system) both broker JVMs have used so far.
broker_ticks() {
    local total=0 name pid
    for name in source target; do
        pid="$(cat "$MIRRORDESK_KAFKA_STATE/$name/pid" 2>/dev/null)" || continue
        total=$((total + $(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0)))
    done
    echo "$total"
}

# The work dir at exit: removed, or kept (and named) when KEEP_WORK is set.
remove_work() {
    if [[ -n "${KEEP_WORK:-}" ]]; then
        log "work dir kept: $WORK"
    else
        rm -rf "$WORK"
    fi
}

# --- results: lines "KIND RUN METRIC VALUE" in $RESULTS, the input of bench_table.py

# /usr/bin/time -f "$TIMEFMT": wall user sys maxrss_kb
TIMEFMT="%e %U %S %M"
now_ms() { date +%s%3N; }
# value of KEY in the RESULT line WHAT of a file
field() { sed -n "s/^RESULT $2 .*\b$3=\([^ ]*\).*/\1/p" "$1" | tail -n1; }
# field I of /usr/bin/time's report (its last line: the program may print before it)
time_field() { tail -n1 "$1" | awk -v i="$2" '{print $i}'; }
record() { printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >>"$RESULTS"; }

# record_time KIND RUN TIMEFILE: peak RSS (MB) and CPU seconds from /usr/bin/time.
record_time() {
    record "$1" "$2" rss_mb "$(awk -v k="$(time_field "$3" 4)" 'BEGIN{printf "%.0f", k/1024}')"
    record "$1" "$2" cpu_s "$(awk -v u="$(time_field "$3" 2)" -v s="$(time_field "$3" 3)" 'BEGIN{printf "%.1f", u+s}')"
}

# record_run KIND RUN OUTFILE WHAT TIMEFILE T0: the steady rate and end to end (from T0, ms)
# of the RESULT line WHAT in OUTFILE (bench_kafka watch, load or consume), then record_time.
record_run() {
    record "$1" "$2" steady_rps "$(field "$3" "$4" steady_rps)"
    record "$1" "$2" steady_mbps "$(field "$3" "$4" steady_mbps)"
    record "$1" "$2" e2e_s "$(awk -v a="$(field "$3" "$4" done_ms)" -v b="$6" 'BEGIN{printf "%.1f", (a-b)/1000}')"
    record_time "$1" "$2" "$5"
}

# record_broker_cpu KIND RUN TICKS0 TICKS1: the brokers' CPU seconds between two broker_ticks.
record_broker_cpu() {
    record "$1" "$2" broker_cpu_s "$(awk -v a="$3" -v b="$4" -v hz="$(getconf CLK_TCK)" 'BEGIN{printf "%.2f", (b-a)/hz}')"
}
