# shellcheck shell=bash
# Debian 12 packages Outpost needs, and a helper that installs only the ones that are missing.
# Sourced by run.sh, test.sh and .ci/run; the Dockerfile installs the same lists.

# To build the engine and the server (scripts/run.sh, the Dockerfile).
OUTPOST_BUILD_PACKAGES=(build-essential cmake g++ git pkg-config ca-certificates
    libboost1.81-dev nlohmann-json3-dev libsqlite3-dev libhiredis-dev zlib1g-dev)
# To build the board page (web/), once it exists.
OUTPOST_WEB_PACKAGES=(nodejs npm)
# Only the test suite needs these: the C++ tests (catch2), the deployment topology test (redis,
# nginx, curl), the browser tests (chromium), the format check (clang-format), the OpenAPI checks
# (python3-yaml, python3-jsonschema), the annotated PGN check (pgn-extract), the fuzzers (clang, and
# libclang-rt-14-dev for libFuzzer and the sanitizer runtimes, which clang only recommends), the
# CPU floor check on emulated older CPUs (qemu-user).
OUTPOST_TEST_PACKAGES=(catch2 redis-server nginx-light curl python3 python3-yaml python3-jsonschema
    chromium clang-format procps clang libclang-rt-14-dev pgn-extract qemu-user)

# Prints the packages among "$@" that dpkg does not report as installed.
outpost_missing_packages() {
    local pkg
    for pkg in "$@"; do
        if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
            echo "$pkg"
        fi
    done
}

# Installs what is missing among "$@"; does nothing (and needs no root) when all are there.
# nodejs from another source (e.g. NodeSource) already ships npm, so an existing `npm` command
# counts as installed.
outpost_ensure_packages() {
    local missing=()
    local pkg
    while read -r pkg; do
        [ -z "$pkg" ] && continue
        if [ "$pkg" = npm ] && command -v npm >/dev/null 2>&1; then continue; fi
        if [ "$pkg" = nodejs ] && command -v node >/dev/null 2>&1; then continue; fi
        if [ "$pkg" = nginx-light ] && command -v nginx >/dev/null 2>&1; then continue; fi
        missing+=("$pkg")
    done < <(outpost_missing_packages "$@")
    [ "${#missing[@]}" -eq 0 ] && return 0
    echo "outpost: installing missing Debian packages: ${missing[*]}" >&2
    local sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1; then sudo=(sudo); else
            echo "outpost: run as root (or install: ${missing[*]})" >&2
            return 1
        fi
    fi
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
        "${missing[@]}"
}

# The page's tools (Vite 7, playwright-core) need Node.js 20 or later; Debian 12 ships 18. When the
# installed node is older, npm installs Node 20 from the npm registry (the `node` package carries
# the binary) into /usr/local/bin, which comes before /usr/bin on PATH.
OUTPOST_MIN_NODE_MAJOR=20
outpost_ensure_node() {
    outpost_ensure_packages "${OUTPOST_WEB_PACKAGES[@]}" || return 1
    local major
    major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
    if [ "$major" -lt "$OUTPOST_MIN_NODE_MAJOR" ]; then
        echo "outpost: node $major is too old for the page's tools; installing node@$OUTPOST_MIN_NODE_MAJOR with npm" >&2
        npm install -g --no-audit --no-fund "node@$OUTPOST_MIN_NODE_MAJOR" || return 1
        hash -r
    fi
}

# True when the board page exists and should be built.
outpost_has_web() { [ -f "$OUTPOST_ROOT/web/package.json" ]; }
