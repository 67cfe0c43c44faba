# syntax=docker/dockerfile:1.7
# Trove's images, one multi-stage build (targets):
#   trove         every Node.js process — gateway, auth, media, library, explore, jobs and the web server; the
#                 chart picks the process with the container command. One image, because they share one
#                 workspace tree and its dependencies: one build, one tag, the layers pulled once per node.
#   trove-worker  the same plus ffmpeg, which only the worker runs (videos: metadata, posters, transcodes).
#   trove-docs    the documentation site, static, served by an unprivileged nginx.
# Build: docker build --target trove -t trove . (likewise trove-worker, trove-docs); skaffold.yaml builds all three.
# No HEALTHCHECK: Kubernetes probes the health endpoints (charts/trove).

ARG NODE_IMAGE=node:20-bookworm-slim
ARG NGINX_IMAGE=nginxinc/nginx-unprivileged:1.27-alpine

# ---------------------------------------------------------------------------------------------------------------
# build: every dependency (dev included), then the compiled services, the web app and the docs site.
FROM ${NODE_IMAGE} AS build
WORKDIR /src
# The manifests first, so that the npm layer is reused while only sources change.
COPY package.json package-lock.json ./
COPY proto-events/package.json proto-events/
COPY openapi/package.json openapi/
COPY services/kit/package.json services/kit/
COPY services/gateway/package.json services/gateway/
COPY services/auth/package.json services/auth/
COPY services/media/package.json services/media/
COPY services/library/package.json services/library/
COPY services/explore/package.json services/explore/
COPY services/jobs/package.json services/jobs/
COPY services/worker/package.json services/worker/
COPY cli/package.json cli/
COPY web/package.json web/
COPY docs/package.json docs/
COPY e2e/package.json e2e/
# `npm install` at the lock file's versions (not `npm ci`: see scripts/install.sh on per-platform optional packages).
RUN --mount=type=cache,target=/root/.npm npm install --no-audit --no-fund
COPY . .
ARG TROVE_GIT_SHA=unknown
RUN npx tsc -b services/gateway services/auth services/media services/library services/explore services/jobs services/worker \
 && npm run build -w web \
 && npm run build -w docs \
 && TROVE_GIT_SHA=${TROVE_GIT_SHA} bash scripts/build-info.sh

# ---------------------------------------------------------------------------------------------------------------
# prod-deps: the production dependencies of the runtime packages only (no docs, e2e, compilers or test tools).
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
COPY --from=build /src/package.json /src/package-lock.json ./
COPY --from=build /src/proto-events/package.json proto-events/
COPY --from=build /src/openapi/package.json openapi/
COPY --from=build /src/services/kit/package.json services/kit/
COPY --from=build /src/services/gateway/package.json services/gateway/
COPY --from=build /src/services/auth/package.json services/auth/
COPY --from=build /src/services/media/package.json services/media/
COPY --from=build /src/services/library/package.json services/library/
COPY --from=build /src/services/explore/package.json services/explore/
COPY --from=build /src/services/jobs/package.json services/jobs/
COPY --from=build /src/services/worker/package.json services/worker/
COPY --from=build /src/web/package.json web/
# The workspace list without the docs site, the end-to-end suites and the `trove` command line, so that their
# dependencies stay out.
RUN node -e "const fs = require('fs'); const p = JSON.parse(fs.readFileSync('package.json', 'utf8')); \
      p.workspaces = p.workspaces.filter((w) => w !== 'docs' && w !== 'e2e' && w !== 'cli'); delete p.devDependencies; \
      fs.writeFileSync('package.json', JSON.stringify(p, null, 2))"
RUN --mount=type=cache,target=/root/.npm npm install --omit=dev --no-audit --no-fund

# ---------------------------------------------------------------------------------------------------------------
# trove: the runtime. Compiled output and the files read at run time (openapi.yaml, the worker's models, the
# web build); no sources' tests, no build tools. Runs as the image's unprivileged `node` user (uid 1000).
FROM ${NODE_IMAGE} AS trove
ARG TROVE_GIT_SHA=unknown
LABEL org.opencontainers.image.title="Trove" \
      org.opencontainers.image.description="Trove services and web server (choose the process with the command)" \
      org.opencontainers.image.source="https://github.com/trove-photos/trove" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.revision="${TROVE_GIT_SHA}"
ENV NODE_ENV=production TROVE_DATA_DIR=/var/lib/trove
WORKDIR /app
COPY --from=prod-deps /app/ ./
COPY --from=build /src/proto-events/dist proto-events/dist
COPY --from=build /src/openapi/dist openapi/dist
COPY --from=build /src/openapi/openapi.yaml openapi/
COPY --from=build /src/services/kit/dist services/kit/dist
COPY --from=build /src/services/gateway/dist services/gateway/dist
COPY --from=build /src/services/gateway/build-info.json services/gateway/
COPY --from=build /src/services/auth/dist services/auth/dist
COPY --from=build /src/services/auth/build-info.json services/auth/
COPY --from=build /src/services/media/dist services/media/dist
COPY --from=build /src/services/media/build-info.json services/media/
COPY --from=build /src/services/library/dist services/library/dist
COPY --from=build /src/services/library/build-info.json services/library/
COPY --from=build /src/services/explore/dist services/explore/dist
COPY --from=build /src/services/explore/build-info.json services/explore/
COPY --from=build /src/services/jobs/dist services/jobs/dist
COPY --from=build /src/services/jobs/build-info.json services/jobs/
COPY --from=build /src/web/server.mjs web/
COPY --from=build /src/web/build web/build
RUN mkdir -p /var/lib/trove && chown node:node /var/lib/trove
USER node
# Every process serves GET /metrics and GET /healthz here when TROVE_METRICS_PORT is set.
EXPOSE 5001 3000 9100
CMD ["node", "services/gateway/dist/main.js"]

# ---------------------------------------------------------------------------------------------------------------
# trove-worker: the runtime plus ffmpeg/ffprobe (installed as root, then back to the unprivileged user).
FROM trove AS trove-worker
LABEL org.opencontainers.image.description="Trove processing worker (ffmpeg included)"
USER root
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /src/services/worker/dist services/worker/dist
COPY --from=build /src/services/worker/models services/worker/models
COPY --from=build /src/services/worker/build-info.json services/worker/
USER node
CMD ["node", "services/worker/dist/main.js"]

# ---------------------------------------------------------------------------------------------------------------
# trove-docs: the built documentation site; nginx-unprivileged listens on 8080 as uid 101.
FROM ${NGINX_IMAGE} AS trove-docs
ARG TROVE_GIT_SHA=unknown
LABEL org.opencontainers.image.title="Trove documentation" \
      org.opencontainers.image.source="https://github.com/trove-photos/trove" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.revision="${TROVE_GIT_SHA}"
COPY --from=build /src/docs/build /usr/share/nginx/html
EXPOSE 8080
