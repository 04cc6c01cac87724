# Outpost server image: multi-stage on Debian 12.
#   docker build -t outpost-server .
#   docker run -p 8080:8080 -v outpost-data:/var/lib/outpost outpost-server
#   behind a TLS-intercepting proxy, give the build its CA certificates as the secret `ca`:
#   docker build --secret id=ca,src=/etc/ssl/certs/ca-certificates.crt -t outpost-server .
# The build stage runs scripts/build.sh, the same recipe CI and scripts/run.sh use, so the image
# cannot drift from what is tested. The runtime stage holds the binaries, the page and only the
# runtime libraries. scripts/image_test.sh builds this file and runs the image (docs/deployment.md).

FROM debian:12-slim AS build
ENV DEBIAN_FRONTEND=noninteractive
WORKDIR /src
# The package lists first: this layer is cached until they change.
# The npm steps (Node 20 here, the page's packages below) accept extra CA certificates from the
# optional build secret `ca` (mounted at /run/secrets/ca for that step only, never in a layer);
# without it node's own CA list is used.
COPY scripts/deps.sh scripts/common.sh scripts/
RUN --mount=type=secret,id=ca \
    if [ -s /run/secrets/ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/ca; fi && \
    bash -c 'source scripts/deps.sh && \
    apt-get update -q && \
    apt-get install -y -q --no-install-recommends \
        "${OUTPOST_BUILD_PACKAGES[@]}" "${OUTPOST_WEB_PACKAGES[@]}" && \
    outpost_ensure_node && \
    rm -rf /var/lib/apt/lists/*'
COPY . .
# x86-64-v2 (SSE4.2, POPCNT) runs on any x86-64 server of the last decade; `native` would tie the
# image to the build machine's CPU. Only the two programs and the page are built, as by
# scripts/run.sh: tests and tools are not (CI runs them).
ARG OUTPOST_ARCH=x86-64-v2
RUN --mount=type=secret,id=ca \
    if [ -s /run/secrets/ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/ca; fi && \
    OUTPOST_ARCH="$OUTPOST_ARCH" OUTPOST_JOBS="$(nproc)" OUTPOST_WITH_TESTS=0 \
        bash scripts/build.sh outpost-server outpost page && \
    mkdir -p /out/bin /out/web && \
    cp build/server/outpost-server build/engine/outpost /out/bin/ && \
    if [ -d web/dist ]; then cp -r web/dist/. /out/web/; fi && \
    strip /out/bin/*

FROM debian:12-slim AS runtime
ENV DEBIAN_FRONTEND=noninteractive
# The user has a fixed uid/gid (999) so that orchestrators can state it as a number
# (docker/k8s/outpost.yaml: runAsUser, runAsNonRoot) and volumes keep their owner across images.
# Runtime libraries only: SQLite (embedded store), hiredis (shared store) and zlib (the page's
# files gzipped; already in the base image, named so it stays). Boost.Asio/Beast
# and nlohmann/json are header-only; libstdc++ is in the base image.
RUN apt-get update -q && \
    apt-get install -y -q --no-install-recommends libsqlite3-0 libhiredis0.14 zlib1g && \
    rm -rf /var/lib/apt/lists/* && \
    groupadd --system --gid 999 outpost && \
    useradd --system --uid 999 --gid outpost --home-dir /var/lib/outpost \
        --shell /usr/sbin/nologin outpost && \
    mkdir -p /var/lib/outpost && chown outpost:outpost /var/lib/outpost
COPY --from=build /out/bin/ /usr/local/bin/
COPY --from=build /out/web/ /usr/share/outpost/web/

# Configuration by environment (every flag of `outpost-server --help` is also OUTPOST_<FLAG>).
# Games live in the server's default store, the SQLite file, here on the volume;
# OUTPOST_STORE=redis with OUTPOST_REDIS_URL puts them in Redis, shared by several replicas
# (docker/compose.yaml). OUTPOST_RETENTION_DAYS removes finished games (default: kept forever).
ENV OUTPOST_BIND=0.0.0.0 \
    OUTPOST_PORT=8080 \
    OUTPOST_WEB_ROOT=/usr/share/outpost/web \
    OUTPOST_SQLITE_PATH=/var/lib/outpost/games.db
VOLUME /var/lib/outpost
USER outpost
WORKDIR /var/lib/outpost
EXPOSE 8080
# /healthz with bash's /dev/tcp: no HTTP client needs to be installed for it.
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
    CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${OUTPOST_PORT} && printf 'GET /healthz HTTP/1.1\\r\\nHost: localhost\\r\\nConnection: close\\r\\n\\r\\n' >&3 && head -n 1 <&3 | grep -q ' 200 '"]
# SIGTERM starts the graceful drain: /readyz turns 503, running searches finish or stop within the
# grace period, WebSockets close with 1001, then the server exits 0.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/outpost-server"]
