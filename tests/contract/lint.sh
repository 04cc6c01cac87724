#!/usr/bin/env bash
# Lints api/openapi.yaml with Redocly's CLI (recommended rules): no errors allowed (warnings are
# printed). The CLI is pinned in tests/contract/package-lock.json and installed here with
# `npm ci` when node_modules is missing (the first run needs the npm registry).
#
#     tests/contract/lint.sh [api/openapi.yaml]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
spec="${1:-$here/../../api/openapi.yaml}"
# shellcheck source=../../scripts/common.sh
source "$here/../../scripts/common.sh"
outpost_ensure_node >&2  # the CLI needs Node 20.19 or later
if [[ ! -x "$here/node_modules/.bin/redocly" ]]; then
    (cd "$here" && npm ci --no-audit --no-fund)
fi
export REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true
exec "$here/node_modules/.bin/redocly" lint --extends recommended --format=summary "$spec"
