# sfd-sidecar: an outbound signing reverse proxy, run as a Kubernetes sidecar.
# Build: docker build -t sfd-sidecar .
# test/deploy/container-image.test.ts assembles exactly what the runtime stage holds (the same build
# commands and copied paths) and runs a signed request through it, since CI has no Docker engine.
#
# Each base image is named by tag and pinned by digest, written out in full in its FROM: the digest is
# what is built on, the tag says what it is, and the dependency bot (renovate.json) can update a literal
# reference, never one built from a build argument. The Node line (24) is the same in all three.
# The build and deps stages run on the builder's own platform: their output is JavaScript and
# production dependencies without native addons, the same for amd64 and arm64, so a multi-platform build
# compiles once and emulates nothing. The runtime stage runs one command, the image's own node writing its
# compile cache (below): that one runs on the target platform.

# Compile the TypeScript sources with the full (dev) toolchain.
FROM --platform=$BUILDPLATFORM \
  node:24-bookworm-slim@sha256:235600a8101ab264e117b1768e925532262668dc9b581ef1dd7d96ced463b8e7 AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY src ./src
RUN npx tsc -p tsconfig.build.json
RUN mkdir compile-cache

# Production dependencies only; the optional one, which check and audit use to read a cluster, stays out.
FROM --platform=$BUILDPLATFORM \
  node:24-bookworm-slim@sha256:235600a8101ab264e117b1768e925532262668dc9b581ef1dd7d96ced463b8e7 AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --omit=optional --no-audit --no-fund --ignore-scripts

# Runtime: distroless Node (no shell, no package manager), non-root.
FROM \
  gcr.io/distroless/nodejs24-debian12:nonroot@sha256:14d42e2511532589a7c7e01a753667a74fcc96266e137e8125006b87b0c32d0a \
  AS runtime
# The release workflow passes the version, the commit and the repository it builds from; a local build
# that passes none leaves those labels empty rather than claim a version or a source it is not.
ARG VERSION
ARG REVISION
ARG SOURCE
LABEL org.opencontainers.image.title="sfd-sidecar" \
      org.opencontainers.image.description="Outbound signing reverse proxy for the SFD API, a Kubernetes sidecar" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.source="${SOURCE}"
WORKDIR /app
ENV NODE_ENV=production
# http-proxy 1.18 calls util._extend, a runtime deprecation warning on Node 24 (DEP0060); only that one is
# silenced. The two heap caps size V8 for a sidecar: a small young generation saves resident memory for
# little garbage-collection time, and the old-generation cap keeps the heap below the chart's memory limit
# and starts full collections early. docs/design.md says why, docs/performance.md what they measure.
# npm run bench and npm run soak use exactly these options.
ENV NODE_OPTIONS="--disable-warning=DEP0060 --max-semi-space-size=4 --max-old-space-size=128"
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist/src ./dist/src
COPY package.json ./
COPY schema ./schema
# Node's compile cache: the code of every module `serve` and `wait-ready` load, compiled once here so that a
# container does not compile it on every start. Node keeps a cache for one Node version, architecture, set of
# V8 flags and user, and ignores it for any other: it is written here, on the target platform, by the image's
# own node, with NODE_OPTIONS above and the flags of CMD below, as the image's user. A pod that runs the
# sidecar as another user, or a read-only root filesystem that refuses a new entry, only loses the cache.
ENV NODE_COMPILE_CACHE=/app/compile-cache
COPY --from=build --chown=65532:65532 /app/compile-cache ./compile-cache
USER nonroot
RUN ["/nodejs/bin/node", "--no-maglev", "--no-allocation-site-pretenuring", "dist/src/warm-compile-cache.js"]
# 8080: signing listener (bound to 127.0.0.1 by default); 9090: admin (metrics, probes); 8081: relay.
EXPOSE 9090 8081
# The distroless entrypoint is node itself, so signals reach the sidecar directly (never npm start).
# --no-maglev turns off V8's mid-tier compiler, which NODE_OPTIONS does not accept: it costs resident
# memory and buys no CPU here. --no-allocation-site-pretenuring keeps V8 out of a mode with a full
# collection every second under load. npm run bench and npm run soak pass the flags given here.
CMD ["--no-maglev", "--no-allocation-site-pretenuring", "dist/src/main.js", "serve"]
