#!/usr/bin/env bash
# The layering of docs/ARCHITECTURE.md, checked on every include of the
# product's sources (engine/, model/, service/, ui/, app/):
#   - a project header is included by its path from the repository's root
#     ("engine/mirror/MirrorJob.h"), so the line says which layer it reaches;
#   - no include points up: engine sees engine; model sees model and engine;
#     service sees service, model and engine; ui sees ui and model; app sees all;
#   - ui reaches engine/ only through the headers listed in
#     tests/layers-ui-engine.txt. That list may only shrink: a new ui -> engine
#     include fails here until model/ offers what the widget needs.
# Exits 1 and names each offending file and line.
#
#   bash tests/check-layers.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

allowed_ui_engine="tests/layers-ui-engine.txt"
declare -A may=(
    [engine]="engine"
    [model]="model engine"
    [service]="service model engine"
    [ui]="ui model"
    [app]="app ui service model engine"
)
declare -A ui_engine=()
while IFS= read -r line; do
    [[ -z "$line" || "$line" == \#* ]] && continue
    ui_engine["$line"]=1
done <"$allowed_ui_engine"

bad=0
used_ui_engine=()
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    mapfile -t files < <(git ls-files --cached --others --exclude-standard engine model service ui app | grep -E '\.(cpp|h)$')
else
    mapfile -t files < <(find engine model service ui app \( -name '*.cpp' -o -name '*.h' \) | sort)
fi
for f in "${files[@]}"; do
    layer="${f%%/*}"
    while IFS=: read -r lineno inc; do
        target="$(sed -E 's/^[[:space:]]*#[[:space:]]*include[[:space:]]+"([^"]+)".*/\1/' <<<"$inc")"
        [[ "$target" == *.moc ]] && continue
        to="${target%%/*}"
        if [[ "$target" != */* || ! -f "$target" ]]; then
            echo "$f:$lineno: \"$target\" is not a header's path from the repository's root"
            bad=1
            continue
        fi
        if [[ " ${may[$layer]} " != *" $to "* ]]; then
            if [[ "$layer" == ui && "$to" == engine && -n "${ui_engine[$target]:-}" ]]; then
                used_ui_engine+=("$target")
                continue
            fi
            echo "$f:$lineno: $layer/ may not include $target (layers: app -> ui -> model -> engine)"
            bad=1
        fi
    done < <(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]+"' "$f" || true)
done
# An entry no ui file needs any more leaves the list, so it cannot come back unnoticed.
for entry in "${!ui_engine[@]}"; do
    if [[ " ${used_ui_engine[*]} " != *" $entry "* ]]; then
        echo "$allowed_ui_engine: $entry is included by no ui file any more: remove it from the list"
        bad=1
    fi
done
if (( bad )); then
    echo "check-layers.sh: FAILED (docs/ARCHITECTURE.md, \"Layers\")"
    exit 1
fi
echo "check-layers.sh: ${#files[@]} files, every include within its layer"
