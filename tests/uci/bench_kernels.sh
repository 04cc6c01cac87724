#!/bin/sh
# Every evaluation kernel and slider method this CPU runs gives the same bench node count: the
# kernels' integer arithmetic is identical, so the search must be too (CI's bench signature holds
# whichever one a machine picks). Usage: bench_kernels.sh OUTPOST_BINARY [DEPTH]
set -eu
outpost="$1"
depth="${2:-7}"
reference=""
ran=0
for kernel in scalar sse2 avx2 avx512; do
    for sliders in magic pext; do
        if ! out="$(OUTPOST_KERNEL=$kernel OUTPOST_SLIDERS=$sliders "$outpost" bench "$depth" 2>&1)"; then
            case "$out" in
                *"cannot run it"* | *"has no PEXT"*)
                    echo "skip: $kernel/$sliders (not on this CPU)"
                    continue ;;
            esac
            echo "FAIL: $kernel/$sliders: $out"
            exit 1
        fi
        paths="$(printf '%s\n' "$out" | sed -n 's/^CPU paths: //p')"
        nodes="$(printf '%s\n' "$out" | sed -n 's/^Nodes searched *: *//p')"
        echo "$paths: $nodes nodes"
        if [ "$paths" != "kernel $kernel, sliders $sliders" ]; then
            echo "FAIL: asked for $kernel/$sliders, ran '$paths'"
            exit 1
        fi
        if [ -z "$reference" ]; then
            reference="$nodes"
        elif [ "$nodes" != "$reference" ]; then
            echo "FAIL: $kernel/$sliders searched $nodes nodes, scalar/magic $reference"
            exit 1
        fi
        ran=$((ran + 1))
    done
done
# Scalar and SSE2 with magic run on every x86-64 CPU.
if [ "$ran" -lt 2 ]; then
    echo "FAIL: only $ran combinations ran"
    exit 1
fi
echo "all $ran combinations: $reference nodes"
