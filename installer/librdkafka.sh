#!/usr/bin/env bash
# Builds the librdkafka MirrorDesk links against, once, into a cache outside
# the source tree, and prints its prefix.
#
#   bash installer/librdkafka.sh           build when missing, print the prefix
#   bash installer/librdkafka.sh --check   print the prefix, or exit 1 when it
#                                          is not built yet
#
# Why not Debian's librdkafka-dev: bookworm ships 2.0.2, whose SASL/SCRAM is
# refused by Kafka 4.x (it repeats the server nonce in its final message,
# fixed in 2.6.1) and whose metadata has no broker racks. The source comes
# from the rdkafka-sys crate, which carries an unmodified librdkafka release;
# cargo fetches it and checks its checksum against the registry's index.
# Static library, position-independent, with SSL, SASL (Cyrus), zstd, lz4,
# zlib and curl (OIDC) from Debian's -dev packages (installer/deps.sh).
#
# MIRRORDESK_RDKAFKA_PREFIX overrides where it goes; CMake looks in the same
# place (see the top-level CMakeLists.txt).
set -euo pipefail

VERSION=2.12.1
CRATE_VERSION="4.10.0+$VERSION"
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/mirrordesk"
PREFIX="${MIRRORDESK_RDKAFKA_PREFIX:-$CACHE/librdkafka-$VERSION}"
STAMP="$PREFIX/lib/cmake/RdKafka/RdKafkaConfigVersion.cmake"

if [[ -f "$STAMP" ]] && grep -q "\"$VERSION\"" "$STAMP"; then
    echo "$PREFIX"
    exit 0
fi
if [[ "${1:-}" == --check ]]; then
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

echo "librdkafka.sh: building librdkafka $VERSION into $PREFIX (about two minutes)" >&2
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S "$source_dir" -B "$work/build" "${generator[@]}" \
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

# Into place in one step: a half-built prefix is never seen as a finished one.
mkdir -p "$(dirname "$PREFIX")"
rm -rf "$PREFIX.tmp"
mv "$work/install" "$PREFIX.tmp"
rm -rf "$PREFIX"
mv "$PREFIX.tmp" "$PREFIX"
echo "$PREFIX"
