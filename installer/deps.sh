#!/usr/bin/env bash
# Installs what MirrorDesk needs to build, run and test on Debian 12 (bookworm)
# with apt-get, then builds librdkafka once (installer/librdkafka.sh).
# Idempotent: checks each package with dpkg-query first and says nothing when
# all are there.
#
#   bash installer/deps.sh              build + run + test packages
#   bash installer/deps.sh --build-only only what building and running needs
#   bash installer/deps.sh --check      list what is missing, install nothing
#                                       (exit 1 when something is missing)
set -euo pipefail

# Compiler, CMake, Qt 6 (Core/Gui/Widgets/Network/PrintSupport/Concurrent/Test,
# all in qt6-base-dev, and the platform plugins, offscreen included), QCustomPlot
# (its Qt 6 build), QtKeychain (Qt 6). qt6-base-dev pulls libgl-dev and friends, which Qt6Gui's
# CMake package requires. librdkafka is built from source by
# installer/librdkafka.sh (Debian's 2.0.2 cannot do SCRAM with Kafka 4.x):
# it needs the -dev packages of what it links, cargo to fetch the source and
# patch for our fixes of it (installer/librdkafka-patches).
BUILD_PACKAGES=(
    build-essential cmake ninja-build pkg-config python3 patch
    qt6-base-dev qt6-base-dev-tools qt6-qpa-plugins libgl-dev
    libqcustomplot-dev qtkeychain-qt6-dev
    libssl-dev libsasl2-dev zlib1g-dev libzstd-dev liblz4-dev libcurl4-openssl-dev
    libavro-dev libprotobuf-dev libprotoc-dev
)
# Tests: Maven + Java 17 for the real Kafka brokers (tests/kafka/harness.sh),
# python3 for its port picking, Xvfb for screenshots, a D-Bus session with
# gnome-keyring for the keychain tests, clang for the libFuzzer targets
# (tests/fuzz) with its fuzzer and sanitizer runtimes (libclang-rt-14-dev: only
# a recommendation of clang, so --no-install-recommends leaves it out),
# clang-format (14 on Debian 12) for tests/check-format.sh, and the
# desktop/packaging validators.
TEST_PACKAGES=(
    maven python3 fonts-dejavu-core
    xvfb xauth
    dbus gnome-keyring libsecret-tools
    clang libclang-rt-14-dev clang-format
    desktop-file-utils xdg-utils appstream dpkg-dev file
    shared-mime-info libfile-mimeinfo-perl
)

mode=all
for arg in "$@"; do
    case "$arg" in
        --build-only) mode=build ;;
        --check) mode=check ;;
        -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "deps.sh: unknown option '$arg' (see --help)" >&2; exit 2 ;;
    esac
done

wanted=("${BUILD_PACKAGES[@]}")
# Any cargo will do (rustup's or Debian's); install Debian's only when there is none.
command -v cargo >/dev/null 2>&1 || wanted+=(cargo)
if [[ "$mode" != build ]]; then
    wanted+=("${TEST_PACKAGES[@]}")
    # Any Java 17+ will do; install one only when there is none.
    if ! command -v java >/dev/null 2>&1 || ! java -version 2>&1 | grep -Eq 'version "(1[7-9]|[2-9][0-9])'; then
        wanted+=(openjdk-17-jre-headless)
    fi
    # Any Go will do for building Toxiproxy (the network-fault tests); Debian's only when there is none.
    command -v go >/dev/null 2>&1 || wanted+=(golang-go)
    # curl drives Toxiproxy's HTTP API (tests/kafka/proxy.sh) and sees the schema registry come up (registry.sh).
    wanted+=(curl)
fi

missing=()
for pkg in "${wanted[@]}"; do
    status="$(dpkg-query -W -f='${db:Status-Abbrev}' "$pkg" 2>/dev/null || true)"
    [[ "$status" == ii* ]] || missing+=("$pkg")
done

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [[ "$mode" == check ]]; then
    status=0
    if (( ${#missing[@]} > 0 )); then
        echo "deps.sh: missing packages: ${missing[*]}"
        status=1
    fi
    bash "$here/librdkafka.sh" --check >/dev/null || status=1
    exit "$status"
fi
if (( ${#missing[@]} == 0 )); then
    bash "$here/librdkafka.sh" >/dev/null
    exit 0
fi

command -v apt-get >/dev/null || { echo "deps.sh: apt-get not found; install by hand: ${missing[*]}" >&2; exit 1; }
SUDO=()
if (( EUID != 0 )); then
    command -v sudo >/dev/null || { echo "deps.sh: not root and no sudo; install: ${missing[*]}" >&2; exit 1; }
    SUDO=(sudo)
fi
echo "deps.sh: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -qq
"${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
bash "$here/librdkafka.sh" >/dev/null
echo "deps.sh: done"
