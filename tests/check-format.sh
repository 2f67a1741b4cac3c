#!/usr/bin/env bash
# Checks that every C++ file of the repository is formatted by its
# .clang-format, as clang-format 14 (Debian 12's) formats it. Lists the files
# that differ and how to fix them; exits 1 when there are any.
#
#   bash tests/check-format.sh          check (run-all.sh runs this)
#   bash tests/check-format.sh --fix    format those files in place
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

fix=0
case "${1:-}" in
    "") ;;
    --fix) fix=1 ;;
    -h|--help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "check-format.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
esac

tool="$(command -v clang-format-14 || command -v clang-format || true)"
[[ -n "$tool" ]] || { echo "check-format.sh: clang-format not found (bash installer/deps.sh installs it)" >&2; exit 1; }
version="$("$tool" --version | sed -nE 's/.*version ([0-9]+).*/\1/p')"
[[ "$version" == 14 ]] || echo "check-format.sh: note: $tool is version $version; the tree is formatted with 14, other versions may disagree" >&2

if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    mapfile -t files < <(git ls-files '*.cpp' '*.h')
else
    mapfile -t files < <(find . -path ./build-\* -prune -o \( -name '*.cpp' -o -name '*.h' \) -print | sed 's|^\./||' | sort)
fi

if (( fix )); then
    "$tool" -i "${files[@]}"
    echo "check-format.sh: formatted ${#files[@]} files"
    exit 0
fi

bad=()
for f in "${files[@]}"; do
    "$tool" --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if (( ${#bad[@]} > 0 )); then
    echo "check-format.sh: ${#bad[@]} of ${#files[@]} files are not formatted by .clang-format:"
    printf '  %s\n' "${bad[@]}"
    echo "  fix: bash tests/check-format.sh --fix   (or: $tool -i FILE)"
    exit 1
fi
echo "check-format.sh: ${#files[@]} files formatted"
