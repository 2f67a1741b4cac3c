#!/usr/bin/env bash
# Makes docs/screenshots/*.png again from the sandbox at 1366x768:
#   tests/screenshots/run.sh [--build DIR] [--out DIR]
# Needs Xvfb (installer/deps.sh installs it) and a build with take_screenshots
# (cmake --build build-ci --target take_screenshots). Starts a private Xvfb
# display unless DISPLAY is set and MD_SCREENSHOT_DISPLAY=existing.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="$ROOT/build-ci"
OUT="$ROOT/docs/screenshots"
while [ $# -gt 0 ]; do
    case "$1" in
        --build) BUILD="$2"; shift ;;
        --out) OUT="$2"; shift ;;
        *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
TOOL="$BUILD/tests/screenshots/take_screenshots"
[ -x "$TOOL" ] || { echo "run.sh: build take_screenshots first ($TOOL is missing)" >&2; exit 2; }
if [ "${MD_SCREENSHOT_DISPLAY:-}" != existing ]; then
    command -v Xvfb >/dev/null || { echo "run.sh: Xvfb is not installed (bash installer/deps.sh)" >&2; exit 2; }
    display=:$((90 + RANDOM % 100))
    Xvfb "$display" -screen 0 1366x768x24 -nolisten tcp >/dev/null 2>&1 &
    xvfb=$!
    trap 'kill $xvfb 2>/dev/null || true' EXIT
    export DISPLAY=$display
    sleep 1
fi
export QT_QPA_PLATFORM=xcb
"$TOOL" "$OUT"
