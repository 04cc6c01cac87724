#!/usr/bin/env bash
# The container image, built and run for real (docs/deployment.md, "How the image is tested").
#
#   1. The base image `debian:12-slim` is made locally when it is absent (no registry is
#      reachable here): debootstrap --variant=minbase from the Debian mirror apt already uses,
#      slimmed like the official image, imported with buildah.
#   2. The project's own Dockerfile is built with buildah (no Docker daemon), with the system CA
#      bundle as the build secret `ca` (a TLS proxy may stand between the build and npm).
#   3. tests/deploy/image_test.py runs the built image's programs with `buildah run --isolation
#      chroot` (podman cannot start containers on these machines), as the image's user, with the
#      image's environment, on the host's loopback: the single server on its volume, the
#      HEALTHCHECK, `outpost bench` and `perft`, three replicas behind nginx with the shipped
#      docker/ rules (the topology test on the image, kill -9 included), the SIGTERM drain, and
#      the image's size.
#
# usage: scripts/image_test.sh [--keep]        (root; .ci/run runs it as its own step)
# Environment (all optional):
#   OUTPOST_IMAGE               the tag built and tested (default: localhost/outpost-server:test)
#   OUTPOST_IMAGE_REUSE=1       test the image already built under that tag, if any (to iterate on
#                               the test without a rebuild)
#   OUTPOST_IMAGE_CA            CA bundle given to the build as the secret `ca` (default: the
#                               system bundle; `none`: no secret)
#   OUTPOST_IMAGE_MAX_ADDED_MB  the most the image may add to its base (default: 100)
#   OUTPOST_IMAGE_WORK          scratch folder for the base image's root (default: /var/tmp)
set -euo pipefail
# shellcheck source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

image="${OUTPOST_IMAGE:-localhost/outpost-server:test}"
base_image="docker.io/library/debian:12-slim"
ca_bundle="${OUTPOST_IMAGE_CA:-/etc/ssl/certs/ca-certificates.crt}"
started=$(date +%s)
say() { echo "[image $(date +%H:%M:%S)] $*"; }
fail() { echo "[image $(date +%H:%M:%S)] FAILED: $*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || fail "run as root: buildah's chroot isolation and debootstrap need it"
outpost_ensure_packages buildah debootstrap redis-server nginx-light python3 ||
    fail "could not install buildah, debootstrap, redis-server, nginx-light and python3"
nginx="$(command -v nginx || echo /usr/sbin/nginx)"

# The first URI among apt's Debian sources that serves the archive `$1` (debian or
# debian-security), e.g. http://deb.debian.org/debian.
apt_mirror() {
    local archive="$1"
    cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources \
        2>/dev/null | grep -E '^[[:space:]]*(deb|URIs:)[[:space:]]' |
        grep -oE '(https?|file)://[^][:space:]]+' | sed 's:/*$::' |
        grep -m1 -E "/$archive\$" || true
}

make_base_image() {
    if buildah inspect --type image "$base_image" >/dev/null 2>&1; then
        say "base image $base_image: present"
        return 0
    fi
    local mirror security work rootfs ctr mnt t0
    mirror="$(apt_mirror debian)"
    security="$(apt_mirror debian-security)"
    mirror="${mirror:-http://deb.debian.org/debian}"
    work="$(mktemp -d "${OUTPOST_IMAGE_WORK:-/var/tmp}/outpost-base-XXXXXX")"
    rootfs="${work:?}/rootfs"
    t0=$(date +%s)
    say "base image $base_image absent: debootstrap --variant=minbase bookworm from $mirror"
    if ! timeout 1200 debootstrap --variant=minbase bookworm "$rootfs" "$mirror" \
        >"$work/debootstrap.log" 2>&1; then
        tail -n 30 "$work/debootstrap.log" >&2
        rm -rf "$work"
        fail "debootstrap could not make the base image's root from $mirror"
    fi
    # Slimmed as the official debian:12-slim is (debuerreotype's slimify): no documentation,
    # manual pages or translations, now and for the packages installed later; apt lists and
    # caches emptied.
    mkdir -p "$rootfs/etc/dpkg/dpkg.cfg.d"
    cat >"$rootfs/etc/dpkg/dpkg.cfg.d/docker" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/info/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/lintian/overrides/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/man/*
path-exclude /usr/share/groff/*
EOF
    find "$rootfs/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
    find "$rootfs/usr/share/doc" -mindepth 1 -type d -empty -delete
    rm -rf "${rootfs:?}"/usr/share/{info,linda,man,groff,locale}/* \
        "${rootfs:?}"/usr/share/lintian/overrides/*
    cat >"$rootfs/etc/apt/apt.conf.d/docker-clean" <<'EOF'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
EOF
    echo 'Acquire::Languages "none";' >"$rootfs/etc/apt/apt.conf.d/docker-no-languages"
    echo 'Acquire::GzipIndexes "true";' >"$rootfs/etc/apt/apt.conf.d/docker-gzip-indexes"
    rm -f "$rootfs/etc/apt/sources.list"
    {
        printf 'Types: deb\nURIs: %s\nSuites: bookworm bookworm-updates\nComponents: main\n' "$mirror"
        printf 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n'
        if [ -n "$security" ]; then
            printf '\nTypes: deb\nURIs: %s\nSuites: bookworm-security\nComponents: main\n' "$security"
            printf 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n'
        fi
    } >"$rootfs/etc/apt/sources.list.d/debian.sources"
    rm -rf "${rootfs:?}"/var/lib/apt/lists/* "${rootfs:?}"/var/cache/apt/* \
        "${rootfs:?}"/var/cache/debconf/*-old "${rootfs:?}"/var/lib/dpkg/*-old \
        "${rootfs:?}"/var/log/* "${rootfs:?}"/dev/* "${rootfs:?}"/tmp/* "${rootfs:?}"/run/*
    : >"$rootfs/etc/machine-id"
    ctr="$(buildah from scratch)"
    mnt="$(buildah mount "$ctr")"
    tar -C "$rootfs" --numeric-owner --xattrs -cf - . | tar -C "$mnt" --numeric-owner --xattrs -xpf -
    buildah umount "$ctr" >/dev/null
    buildah config --os linux --arch "$(dpkg --print-architecture)" \
        --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin --cmd bash \
        "$ctr"
    buildah commit --rm -q "$ctr" "$base_image" >/dev/null
    rm -rf "$work"
    say "base image $base_image made in $(($(date +%s) - t0)) s"
}

build_image() {
    if [ "${OUTPOST_IMAGE_REUSE:-0}" = 1 ] && buildah inspect --type image "$image" >/dev/null 2>&1
    then
        say "OUTPOST_IMAGE_REUSE=1: testing the image $image already built"
        return 0
    fi
    local secret=() t0
    if [ "$ca_bundle" != none ] && [ -s "$ca_bundle" ]; then
        secret=(--secret "id=ca,src=$ca_bundle")
    fi
    t0=$(date +%s)
    say "building $OUTPOST_ROOT/Dockerfile as $image (buildah bud --isolation chroot${secret:+, secret ca=$ca_bundle})"
    if ! buildah bud --isolation chroot --format docker --layers --pull=never "${secret[@]}" -t "$image" \
        -f "$OUTPOST_ROOT/Dockerfile" "$OUTPOST_ROOT"; then
        fail "the Dockerfile does not build (buildah bud, above)"
    fi
    say "image $image built in $(($(date +%s) - t0)) s"
}

make_base_image
build_image
# The image's engine must be the one the commits' `Bench:` lines describe.
expected_bench="$(git -C "$OUTPOST_ROOT" log --format=%B 2>/dev/null |
    grep -m1 -E '^Bench: [0-9]+' | grep -oE '[0-9]+' || true)"
say "running the image's programs (tests/deploy/image_test.py)"
status=0
python3 "$OUTPOST_ROOT/tests/deploy/image_test.py" --image "$image" --base-image "$base_image" \
    --redis "$(command -v redis-server)" --nginx "$nginx" \
    --proxy-conf "$OUTPOST_ROOT/docker/outpost-proxy.conf" \
    --http-conf "$OUTPOST_ROOT/docker/outpost-http.conf" \
    --compose "$OUTPOST_ROOT/docker/compose.yaml" --expected-bench "$expected_bench" \
    --max-added-mb "${OUTPOST_IMAGE_MAX_ADDED_MB:-100}" "$@" || status=$?
if [ "$status" -ne 0 ]; then fail "the image test failed (above); $(($(date +%s) - started)) s"; fi
say "PASSED in $(($(date +%s) - started)) s"
