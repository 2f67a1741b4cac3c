#!/usr/bin/env bash
# Quick start: installs what is missing, builds MirrorDesk, and opens it on the
# sandbox (two embedded Kafka clusters with a demo mirror job running).
#   bash installer/quickstart.sh            the GUI on the sandbox
#   bash installer/quickstart.sh --build    install and build only
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

bash installer/deps.sh
cmake --preset default >/dev/null
cmake --build --preset default -j"$(nproc)"
[ "${1:-}" = "--build" ] && { echo "built: $root/build/app/mirrordesk"; exit 0; }

if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [ -z "${QT_QPA_PLATFORM:-}" ]; then
    echo "No display found. On a server, run a job headless instead:" >&2
    echo "  build/app/mirrordesk run resources/examples/sandbox-demo.mirrorjob --sandbox" >&2
    exit 1
fi
exec build/app/mirrordesk --sandbox
