#!/bin/sh
# Runs a test program with a keychain of its own, or with none:
#   keychain-env.sh session PROGRAM [ARGS...]  a private D-Bus session (dbus-run-session)
#       with gnome-keyring-daemon's secret service, its login keyring unlocked
#   keychain-env.sh none PROGRAM [ARGS...]     no D-Bus session bus at all
# Either way HOME and the XDG directories point into a fresh temporary
# directory (removed afterwards), so the keyring files and anything the program
# writes stay there and the test can search them for secrets written in clear.
# The program sees MD_KEYCHAIN_MODE (session | none) and MD_KEYCHAIN_HOME.
set -eu
mode="$1"; shift
dir="$(mktemp -d "${TMPDIR:-/tmp}/mirrordesk-keychain.XXXXXX")"
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/home" "$dir/run"
chmod 700 "$dir/run"
export HOME="$dir/home" XDG_DATA_HOME="$dir/home/.local/share" XDG_CONFIG_HOME="$dir/home/.config" \
       XDG_CACHE_HOME="$dir/home/.cache" XDG_RUNTIME_DIR="$dir/run" \
       MD_KEYCHAIN_MODE="$mode" MD_KEYCHAIN_HOME="$dir/home"
unset DISPLAY WAYLAND_DISPLAY
status=0
case "$mode" in
    session)
        command -v dbus-run-session >/dev/null && command -v gnome-keyring-daemon >/dev/null || {
            echo "keychain-env.sh: dbus-run-session or gnome-keyring-daemon missing (bash installer/deps.sh)" >&2
            exit 1
        }
        dbus-run-session -- sh -c \
            'printf pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null; exec "$@"' sh "$@" || status=$?
        ;;
    none)
        # A bus address that leads nowhere: nothing may autolaunch one either.
        DBUS_SESSION_BUS_ADDRESS="unix:path=$dir/run/no-bus" "$@" || status=$?
        ;;
    *)
        echo "keychain-env.sh: mode is session or none, not '$mode'" >&2
        exit 2
        ;;
esac
exit "$status"
