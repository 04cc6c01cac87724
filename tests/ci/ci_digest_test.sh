#!/usr/bin/env bash
# scripts/ci_digest.py names each failed test of a ctest console log and keeps the lines that say
# why (Catch2's FAILED and its expansion, a sanitizer's ERROR and SUMMARY), and nothing for a
# passed one.
set -uo pipefail
digest="$1"
log="$(mktemp)"; trap 'rm -f "$log"' EXIT
{
    echo "Test project /b"
    echo "    Start 1: engine:passes"
    echo "1/3 Test #1: engine:passes ...................   Passed    0.01 sec"
    echo "2/3 Test #2: server:catch fails ..............***Failed    1.00 sec"
    for i in $(seq 1 60); do echo "noise $i"; done
    echo "/src/tests/server/test_x.cpp:42: FAILED:"
    echo "  REQUIRE( reply.status == 200 )"
    echo "with expansion:"
    echo "  409 == 200"
    for i in $(seq 61 120); do echo "noise $i"; done
    echo "3/3 Test #3: server:asan aborts ..............Subprocess aborted***Exception:   2.00 sec"
    for i in $(seq 1 60); do echo "frame $i"; done
    echo "==1==ERROR: AddressSanitizer: heap-use-after-free on address 0x1"
    for i in $(seq 61 120); do echo "frame $i"; done
    echo "SUMMARY: AddressSanitizer: heap-use-after-free /src/server/ws.cpp:7 in f"
    echo
    echo "33% tests passed, 2 tests failed out of 3"
    echo "Total Test time (real) =   3.00 sec"
} >"$log"
out="$(python3 "$digest" "$log")"
all="$out"
echo "$out"
fail() { echo "ci_digest: $1"; exit 1; }
grep -q "server:catch fails" <<<"$out" || fail "the failed Catch2 test is not named"
grep -q "REQUIRE( reply.status == 200 )" <<<"$out" || fail "the failed assertion is missing"
grep -q "409 == 200" <<<"$out" || fail "the expansion is missing"
grep -q "server:asan aborts" <<<"$out" || fail "the aborted test is not named"
grep -q "ERROR: AddressSanitizer: heap-use-after-free" <<<"$out" || fail "the sanitizer's error is missing"
grep -q "SUMMARY: AddressSanitizer" <<<"$out" || fail "the sanitizer's summary is missing"
grep -q "engine:passes" <<<"$out" && fail "a passed test was shown"
[ "$(wc -l <<<"$out")" -le 100 ] || fail "the digest is longer than 100 lines"
passed="$(mktemp)"; grep -v "Failed\|aborted" "$log" | head -3 >"$passed"
[ -z "$(python3 "$digest" "$passed")" ] || fail "a log without failures printed something"
rm -f "$passed"
retry="$(mktemp)"
printf '%s\n' "1/3 Test #1: server:ok ......   Passed    0.01 sec" \
    "2/3 Test #2: server:flaky ......***Failed    0.50 sec" "first try fails" "" \
    "3/3 Test #3: server:broken ......***Failed    0.50 sec" "fails every time" "" \
    "    Start 2: server:flaky" "    Test #2: server:flaky ......   Passed    0.40 sec" \
    "    Start 3: server:broken" "    Test #3: server:broken ......***Failed    0.40 sec" \
    "fails every time" "" "67% tests passed, 1 tests failed out of 3" >"$retry"
out="$(python3 "$digest" "$retry")"; rm -f "$retry"
echo "$out"
grep -q "server:flaky .*passed on its retry: flaky" <<<"$out" || fail "a test that passed on its retry is not marked flaky"
grep -q "first try fails" <<<"$out" || fail "the flaky test's first failure is missing"
grep -q "server:broken" <<<"$out" || fail "a test that failed on its retry too is not named"
grep -q "server:broken.*flaky" <<<"$out" && fail "a test that failed on its retry too was marked flaky"
grep -q "server:catch fails.*flaky" <<<"$all" && fail "a test that was not retried was marked flaky"
web="$(mktemp)"
printf '%s\n' "✔ passes (1ms)" "✖ failing tests:" "" "test at e2e/defects.test.mjs:40:1" \
    "✖ Takeback is off once the game is over (812ms)" \
    "  AssertionError [ERR_ASSERTION]: takeback stays on" >"$web"
out="$(python3 "$digest" "$web")"; rm -f "$web"
echo "$out"
grep -q "Takeback is off once the game is over" <<<"$out" || fail "the failed browser test is not named"
grep -q "takeback stays on" <<<"$out" || fail "the browser test's assertion is missing"
echo "ci_digest ok"
