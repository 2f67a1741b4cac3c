#!/usr/bin/env bash
# Builds the librdkafka MirrorDesk links against, once, into a cache outside
# the source tree, and prints its prefix.
#
#   bash installer/librdkafka.sh           build when missing, print the prefix
#   bash installer/librdkafka.sh --check   print the prefix, or exit 1 when it
#                                          is not built yet
#   bash installer/librdkafka.sh --tsan    the same for the thread sanitizer
#                                          build (--check may be given too)
#   bash installer/librdkafka.sh --asan    the same for the address sanitizer
#                                          build (--check may be given too)
#
# Why not Debian's librdkafka-dev: bookworm ships 2.0.2, whose SASL/SCRAM is
# refused by Kafka 4.x (it repeats the server nonce in its final message,
# fixed in 2.6.1) and whose metadata has no broker racks. The source comes
# from the rdkafka-sys crate, which carries an unmodified librdkafka release;
# cargo fetches it and checks its checksum against the registry's index.
# Static library, position-independent, with SSL, SASL (Cyrus), zstd, lz4,
# zlib and curl (OIDC) from Debian's -dev packages (installer/deps.sh).
#
# --tsan builds a second one, into librdkafka-<version>-tsan, for the tsan
# preset, as librdkafka's own dev-conf.sh tsan does: on librdkafka's own
# threads (tinycthread over pthreads) instead of glibc's C11 threads, whose
# thrd_create and mtx_lock call glibc's pthread internals directly, past
# ThreadSanitizer's interceptors (TSan would have no state for librdkafka's
# threads, which crash at their first malloc, and see none of its locking);
# instrumented, so TSan sees its reference counts: otherwise every buffer
# librdkafka frees after the last reference went on another thread shows as
# a race with whoever read it (a record's payload read by our code); and with
# the __atomic builtins for its atomics' stores (below).
#
# --asan builds a third one, into librdkafka-<version>-asan, for the asan
# preset: instrumented with AddressSanitizer + UBSan, on glibc's C11 threads
# as the default one (ASan needs no tinycthread: it intercepts malloc and
# free, not the locking). With the default, uninstrumented one ASan still sees
# librdkafka's malloc and free (a double free is reported), but none of its
# reads and writes: a write into a freed or overflowed object by librdkafka,
# or a read past a buffer our code handed it, went unseen (issue 40).
#
# All builds define HAVE_ATOMICS_{32,64}_ATOMIC, as librdkafka's ./configure
# (mklove) build does and its CMake build does not (fixed upstream after
# 2.12.1). Without them rd_atomic32_set and rd_atomic64_set are plain stores
# that return the new value instead of the old one ("FIXME" in rdatomic.h):
# a race with every atomic read of the same counter (50 reports in one TSan
# run), and every "did this change it" test on their result is always true
# or always false. So librdkafka never reported "all brokers down" and never
# re-bootstrapped when every known broker was down. A cache built without
# them (no BUILD_ID file below) is built again.
#
# MIRRORDESK_RDKAFKA_PREFIX overrides where it goes; CMake looks in the same
# place (see the top-level CMakeLists.txt).
set -euo pipefail

VERSION=2.12.1
CRATE_VERSION="4.10.0+$VERSION"
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/mirrordesk"
CHECK=0 TSAN=0 ASAN=0
for arg in "$@"; do
    case "$arg" in
    --check) CHECK=1 ;;
    --tsan) TSAN=1 ;;
    --asan) ASAN=1 ;;
    *) echo "librdkafka.sh: unknown argument $arg" >&2; exit 2 ;;
    esac
done
if (( TSAN && ASAN )); then
    echo "librdkafka.sh: --tsan and --asan are two builds: one at a time" >&2
    exit 2
fi
VARIANT=""
(( TSAN )) && VARIANT=-tsan
(( ASAN )) && VARIANT=-asan
PREFIX="${MIRRORDESK_RDKAFKA_PREFIX:-$CACHE/librdkafka-$VERSION$VARIANT}"
STAMP="$PREFIX/lib/cmake/RdKafka/RdKafkaConfigVersion.cmake"
# Changes whenever the flags or the patches below change, so an older cache
# is rebuilt.
BUILD_ID="atomics-1+coord-tick-1+group-types-1+share-groups-2"

if [[ -f "$STAMP" ]] && grep -q "\"$VERSION\"" "$STAMP" &&
    [[ "$(cat "$PREFIX/BUILD_ID" 2>/dev/null)" == "$BUILD_ID" ]]; then
    echo "$PREFIX"
    exit 0
fi
if (( CHECK )); then
    echo "librdkafka.sh: librdkafka $VERSION is not built in $PREFIX" >&2
    exit 1
fi

command -v cargo >/dev/null || { echo "librdkafka.sh: cargo is needed to fetch the librdkafka source (installer/deps.sh installs it)" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# A throw-away crate whose only dependency is the pinned rdkafka-sys: cargo
# downloads and verifies it, and `cargo metadata` says where it unpacked it.
mkdir -p "$work/fetch/src"
cat > "$work/fetch/Cargo.toml" <<EOF
[package]
name = "mirrordesk-librdkafka-source"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
rdkafka-sys = { version = "=$CRATE_VERSION", default-features = false }
EOF
echo > "$work/fetch/src/lib.rs"
echo "librdkafka.sh: fetching librdkafka $VERSION source" >&2
cargo fetch --quiet --manifest-path "$work/fetch/Cargo.toml"
manifest="$(cargo metadata --quiet --format-version 1 --manifest-path "$work/fetch/Cargo.toml" |
    python3 -c 'import json,sys
d = json.load(sys.stdin)
print(next(p["manifest_path"] for p in d["packages"] if p["name"] == "rdkafka-sys"))')"
source_dir="$(dirname "$manifest")/librdkafka"
[[ -f "$source_dir/CMakeLists.txt" ]] || { echo "librdkafka.sh: no librdkafka source in $source_dir" >&2; exit 1; }
# A copy, patched: cargo's unpacked crate stays as the registry gave it.
# installer/librdkafka-patches/ holds our own fixes of librdkafka bugs that
# MirrorDesk's tests hit (each file says what and why).
cp -a "$source_dir" "$work/source"
source_dir="$work/source"
shopt -s nullglob
for p in "$(dirname "${BASH_SOURCE[0]}")"/librdkafka-patches/*.patch; do
    patch -s -p1 -d "$source_dir" < "$p" || { echo "librdkafka.sh: $p does not apply" >&2; exit 1; }
done
if (( TSAN )); then
    # librdkafka's CMake build has no switch for it: it takes C11 threads when
    # its probe compiles. A copy whose probe cannot compile builds tinycthread.
    echo '#error "not for ThreadSanitizer (installer/librdkafka.sh --tsan)"' \
        > "$source_dir/packaging/cmake/try_compile/c11threads_test.c"
fi

echo "librdkafka.sh: building librdkafka $VERSION$VARIANT into $PREFIX (about two minutes)" >&2
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cflags="-DHAVE_ATOMICS_32_ATOMIC=1 -DHAVE_ATOMICS_64_ATOMIC=1"
if (( TSAN )); then
    # Reports name its files librdkafka-<version>/src/..., not this temporary copy.
    cflags+=" -fsanitize=thread -g -fdebug-prefix-map=$source_dir=librdkafka-$VERSION"
elif (( ASAN )); then
    cflags+=" -fsanitize=address,undefined -fno-omit-frame-pointer -g -fdebug-prefix-map=$source_dir=librdkafka-$VERSION"
fi
flags=(-DCMAKE_C_FLAGS="$cflags" -DCMAKE_CXX_FLAGS="$cflags")
cmake -S "$source_dir" -B "$work/build" "${generator[@]}" "${flags[@]}" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_INSTALL_PREFIX="$work/install" \
    -DCMAKE_INSTALL_LIBDIR=lib \
    -DCMAKE_POSITION_INDEPENDENT_CODE=ON \
    -DRDKAFKA_BUILD_STATIC=ON \
    -DRDKAFKA_BUILD_EXAMPLES=OFF \
    -DRDKAFKA_BUILD_TESTS=OFF \
    -DWITH_SSL=ON -DWITH_SASL=ON -DWITH_ZSTD=ON -DWITH_CURL=ON \
    > "$work/configure.log" 2>&1 || { cat "$work/configure.log" >&2; exit 1; }
cmake --build "$work/build" -j "$(nproc)" > "$work/build.log" 2>&1 || { tail -50 "$work/build.log" >&2; exit 1; }
cmake --install "$work/build" > /dev/null
echo "$BUILD_ID" > "$work/install/BUILD_ID"

# Into place in one step: a half-built prefix is never seen as a finished one.
mkdir -p "$(dirname "$PREFIX")"
rm -rf "$PREFIX.tmp"
mv "$work/install" "$PREFIX.tmp"
rm -rf "$PREFIX"
mv "$PREFIX.tmp" "$PREFIX"
echo "$PREFIX"
