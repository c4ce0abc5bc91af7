# syntax=docker/dockerfile:1
# Enclave: multi-stage build. The build stage compiles TypeScript and prunes dev dependencies;
# the runtime stage holds only what runs, as a non-root user, behind tini.

FROM node:22-bookworm-slim AS build
# gcc compiles the agent sandbox launcher (native/enclave-sandbox.c); the runtime stage gets only the binary.
RUN apt-get update \
 && apt-get install -y --no-install-recommends gcc libc6-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: the root `prepare` script would build dist/ here, before src/ is copied;
# `npm run build` below builds it once.
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/build-dist.mjs scripts/copy-assets.mjs scripts/build-sandbox.mjs ./scripts/
COPY native ./native
COPY src ./src
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:22-bookworm-slim AS runtime
# tini reaps zombies and forwards SIGTERM; git is what agent jobs clone and push with, and
# openssh-client its ssh transport (git only recommends it, and recommends are not installed).
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini git openssh-client ca-certificates \
 && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    ENCLAVE_HOST=0.0.0.0 \
    ENCLAVE_PORT=8080 \
    ENCLAVE_DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The server runs as 10001 and so does the agent: this Landlock launcher keeps the agent out of the
# server's environment and /data (agent.sandbox "auto"; see SECURITY.md).
COPY --from=build /app/build/enclave-sandbox ./build/enclave-sandbox
COPY package.json ./
COPY config ./config
COPY examples ./examples
COPY bin ./bin
# `enclave` on PATH, for `docker exec CONTAINER enclave keys create …`. Everything the appliance writes lives in /data, so the root filesystem can be read-only.
# enclave-agent (10002) is who agent jobs run as when the server runs as root
# (agent.runAsUser "auto"; see SECURITY.md): it can't enter /data (0700) nor read the server's
# /proc/<pid>/environ. The default USER stays the unprivileged 10001.
RUN ln -s /app/bin/enclave.js /usr/local/bin/enclave \
 && groupadd --gid 10001 enclave && useradd --uid 10001 --gid 10001 --no-create-home --shell /usr/sbin/nologin enclave \
 && groupadd --gid 10002 enclave-agent && useradd --uid 10002 --gid 10002 --no-create-home --shell /usr/sbin/nologin enclave-agent \
 && mkdir -p /data && chown 10001:10001 /data && chmod 700 /data
USER 10001:10001
VOLUME ["/data"]
EXPOSE 8080 8081
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.ENCLAVE_PORT||8080)+'/_enclave/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Arguments go to the CLI: `docker run IMAGE keys list` (or `… enclave keys list`); none means serve.
ENTRYPOINT ["/usr/bin/tini", "--", "/app/bin/docker-entrypoint.sh"]
CMD ["serve"]
