# A federated remote (remote-simulation, remote-reports or remote-admin), one image each from this
# one file: the production bundle served by the remote's server.mjs on @portal/static-server, as
# `npm start` serves it (scripts/services.mjs: `node server.mjs` in the remote's folder), with
# CORS so the host's pages load its remoteEntry.js. REMOTE is its name in contract/src/remotes.json.
#   docker build -f deploy/remote.Dockerfile --build-arg REMOTE=reports -t portal-remote-reports .
# The three remotes are built and served alike; one file keeps them from drifting apart.
ARG NODE_IMAGE=node:20.20.2-bookworm-slim

FROM ${NODE_IMAGE} AS build
ARG REMOTE
RUN npm install --global pnpm@9.15.9
WORKDIR /repo
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
RUN pnpm fetch
COPY . .
RUN node -e "const r = require('./contract/src/remotes.json'); if (!r[process.env.REMOTE]) { console.error('REMOTE must be one of ' + Object.keys(r).join(', ')); process.exit(1); }" \
  && pnpm install --offline --frozen-lockfile --filter "@portal/remote-${REMOTE}..." \
  && pnpm --filter "@portal/remote-${REMOTE}" build \
  && pnpm --filter @portal/static-server deploy --prod --offline /out/static-server \
  && rm -rf /out/static-server/test \
  && mkdir /out/remote \
  && cp -R "remote-${REMOTE}/server.mjs" "remote-${REMOTE}/dist" /out/remote/

FROM ${NODE_IMAGE}
WORKDIR /app/remote
COPY --from=build /out/static-server /app/node_modules/@portal/static-server
COPY --from=build /repo/contract/src/remotes.json /app/contract/src/
COPY --from=build /repo/tools/build/remote-manifest.mjs /app/tools/build/
COPY --from=build /out/remote ./
COPY deploy/healthcheck.mjs /app/healthcheck.mjs
ENV HOST_LISTEN=0.0.0.0 PORT=8080
USER node
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "/app/healthcheck.mjs", "PORT", "8080"]
CMD ["node", "server.mjs"]
