# shellcheck shell=bash
# Shared by the scripts: repository root, build folder, and where the programs land.
OUTPOST_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUTPOST_BUILD_DIR="${OUTPOST_BUILD_DIR:-$OUTPOST_ROOT/build}"
# shellcheck source=deps.sh
source "$OUTPOST_ROOT/scripts/deps.sh"

# Prints the path of a built program (first match under the build folder), or nothing.
outpost_find_program() {
    local name="$1" dir="${2:-$OUTPOST_BUILD_DIR}"
    local candidate
    for candidate in "$dir/$name" "$dir/server/$name" "$dir/engine/$name" "$dir/bin/$name"; do
        if [ -x "$candidate" ] && [ -f "$candidate" ]; then echo "$candidate"; return 0; fi
    done
    find "$dir" -maxdepth 3 -type f -name "$name" -perm -u+x 2>/dev/null | head -n 1
}
