# The host (host/): the production bundle served by host/server.mjs on @portal/static-server, as
# `npm start` serves it (scripts/services.mjs: `node server.mjs` in host/): the SPA, /config.json
# from the environment, /api proxied to API_URL. React, webpack and the rest stay in the build
# stage; the image holds the bundle, the two server files and the static server's dependencies.
#   docker build -f deploy/host.Dockerfile -t portal-host .
ARG NODE_IMAGE=node:20.20.2-bookworm-slim

FROM ${NODE_IMAGE} AS build
RUN npm install --global pnpm@9.15.9
WORKDIR /repo
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
RUN pnpm fetch
COPY . .
RUN pnpm install --offline --frozen-lockfile --filter "@portal/host..." \
  && pnpm --filter @portal/host build \
  && pnpm --filter @portal/static-server deploy --prod --offline /out/static-server \
  && rm -rf /out/static-server/test

FROM ${NODE_IMAGE}
# The repository's layout: server-config.mjs reads the remote manifest through
# ../tools/build/remote-manifest.mjs, which reads ../../contract/src/remotes.json.
WORKDIR /app/host
COPY --from=build /out/static-server /app/node_modules/@portal/static-server
COPY --from=build /repo/contract/src/remotes.json /app/contract/src/
COPY --from=build /repo/tools/build/remote-manifest.mjs /app/tools/build/
COPY --from=build /repo/host/server.mjs /repo/host/server-config.mjs ./
COPY --from=build /repo/host/dist ./dist
COPY deploy/healthcheck.mjs /app/healthcheck.mjs
ENV HOST_LISTEN=0.0.0.0 HOST_PORT=8080
USER node
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "/app/healthcheck.mjs", "HOST_PORT", "8080"]
CMD ["node", "server.mjs"]
