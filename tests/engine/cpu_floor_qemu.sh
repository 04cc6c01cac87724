#!/bin/sh
# The program on CPUs it was not built on, emulated by qemu-user: below the build's floor it must
# stop with the floor message and exit code 3 (never an illegal instruction); at or above it, it
# must run the code paths that CPU has and search the same tree as on this machine.
# Usage: cpu_floor_qemu.sh OUTPOST_BINARY. Exit 77 (skipped) without qemu-x86_64.
set -u
outpost="$1"
depth=4
if ! command -v qemu-x86_64 >/dev/null 2>&1; then
    echo "skip: qemu-x86_64 is not installed (Debian: qemu-user)"
    exit 77
fi
native_nodes="$("$outpost" bench $depth | sed -n 's/^Nodes searched *: *//p')"
failures=0
# CPU model, and the paths the program must pick on it when it runs there.
for model in "qemu64:kernel sse2, sliders magic" "Nehalem:kernel sse2, sliders magic" \
    "Haswell:kernel avx2, sliders pext"; do
    cpu="${model%%:*}"
    expected="${model#*:}"
    out="$(qemu-x86_64 -cpu "$cpu" "$outpost" bench $depth 2>&1)"
    rc=$?
    case $rc in
        0)
            paths="$(printf '%s\n' "$out" | sed -n 's/^CPU paths: //p')"
            nodes="$(printf '%s\n' "$out" | sed -n 's/^Nodes searched *: *//p')"
            if [ "$paths" = "$expected" ] && [ "$nodes" = "$native_nodes" ]; then
                echo "ok: $cpu runs it: $paths, $nodes nodes"
            else
                echo "FAIL: $cpu ran '$paths' with $nodes nodes; expected '$expected', $native_nodes"
                failures=$((failures + 1))
            fi
            ;;
        3)
            if printf '%s\n' "$out" | grep -q "^outpost: this CPU lacks .* which this build"; then
                echo "ok: $cpu is below the floor: $(printf '%s\n' "$out" | grep '^outpost:')"
            else
                echo "FAIL: $cpu: exit 3 without the floor message: $out"
                failures=$((failures + 1))
            fi
            ;;
        *)
            echo "FAIL: $cpu: exit code $rc (132 is an illegal instruction): $out"
            failures=$((failures + 1))
            ;;
    esac
done
[ "$failures" -eq 0 ]
