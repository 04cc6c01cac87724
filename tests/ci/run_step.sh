#!/usr/bin/env bash
# .ci/run's run_step fails a step when any of its commands fails, not only its last one, and
# still runs the steps after it. The function is taken from .ci/run itself, so this tests what
# CI runs.
set -uo pipefail
ci_run="$1"
fn="$(sed -n '/^run_step() {/,/^}/p' "$ci_run")"
[ -n "$fn" ] || { echo "no run_step() in $ci_run"; exit 1; }
eval "$fn"
elapsed() { echo 0s; }
failed=() step_times=()

first_fails() { false; echo "after the failure"; true; }
last_fails() { true; false; }
passes() { true; echo ok; }
out="$(run_step "first fails" first_fails; run_step "last fails" last_fails; run_step "passes" passes
       printf 'failed: %s\n' "${failed[@]}")"
echo "$out"
grep -q "after the failure" <<<"$out" && { echo "a step went on after a failing command"; exit 1; }
grep -q "^failed: first fails$" <<<"$out" || { echo "a failure before the last command was missed"; exit 1; }
grep -q "^failed: last fails$" <<<"$out" || { echo "a failing last command was missed"; exit 1; }
grep -q "^failed: passes$" <<<"$out" && { echo "a passing step was counted as failed"; exit 1; }
grep -q "=== ci \[0s\]: passes: " <<<"$out" || { echo "the step after the failures did not run"; exit 1; }
echo "run_step ok"
