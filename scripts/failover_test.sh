#!/usr/bin/env bash
# Redis failover under play (tests/deploy/failover_test.py): a Redis primary and replica, three
# sentinels (`redis-server --sentinel`), three outpost-server replicas configured through
# Sentinel and nginx on loopback; the primary is killed with SIGKILL mid-game. Registered in
# CTest as `deploy: failover` (label deploy;slow); run alone: scripts/failover_test.sh [--keep]
# [--min-replica-acks N]. Exit status 77 (CTest: skipped) when outpost-server is not built yet.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
source "$(dirname "${BASH_SOURCE[0]}")/loopback_deploy.sh"

outpost_run_loopback_test failover "$OUTPOST_ROOT/tests/deploy/failover_test.py" "$@"
