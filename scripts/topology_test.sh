#!/usr/bin/env bash
# The deployment topology without containers (tests/deploy/topology_test.py): redis-server, three
# outpost-server replicas and nginx (docker/outpost-proxy.conf) on loopback; a game played through
# nginx, a replica killed mid-search, everything restarted. Registered in CTest as
# `deploy: topology` (label deploy;slow); run alone: scripts/topology_test.sh [--keep].
# Exit status 77 (CTest: skipped) when outpost-server is not built yet.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
source "$(dirname "${BASH_SOURCE[0]}")/loopback_deploy.sh"

outpost_run_loopback_test topology "$OUTPOST_ROOT/tests/deploy/topology_test.py" "$@"
