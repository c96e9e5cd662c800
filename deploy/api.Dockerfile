# The API (api/): Fastify on Node 20, run from its TypeScript sources through tsx, exactly as
# `npm start` runs it (scripts/services.mjs: `node --max-semi-space-size=64
# --heap-growing-percent=100 --import tsx src/server.ts` in api/). It applies pending migrations
# itself when it starts (docs/deploy.md#upgrading).
#   docker build -f deploy/api.Dockerfile -t portal-api .
# Node 20 at an exact version (engines: >=20.19); pin by digest with
#   --build-arg NODE_IMAGE=node:20.20.2-bookworm-slim@sha256:…
ARG NODE_IMAGE=node:20.20.2-bookworm-slim

FROM ${NODE_IMAGE} AS build
RUN npm install --global pnpm@9.15.9
WORKDIR /repo
# The store is filled from the lockfile alone, so this layer is rebuilt only when it changes.
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
RUN pnpm fetch --prod
COPY . .
# The API's production dependencies only, its workspace packages (contract, service-kit, xray)
# copied in as files: no dev dependency and no link to the source tree reaches the image.
RUN pnpm --filter @portal/api deploy --prod --offline /out

FROM ${NODE_IMAGE}
WORKDIR /app/api
COPY --from=build /out/package.json ./
COPY --from=build /out/node_modules ./node_modules
COPY --from=build /out/src ./src
COPY --from=build /out/migrations ./migrations
# `node --import tsx scripts/create-admin.ts --email …`: the first global administrator;
# `node --import tsx scripts/lti-rotate-key.ts [--now]`: rotates the LTI tool key by hand.
COPY --from=build /out/scripts/create-admin.ts /out/scripts/lti-rotate-key.ts /out/scripts/command-setup.ts ./scripts/
COPY deploy/healthcheck.mjs /app/healthcheck.mjs
# The embedded database and local file storage (PGLITE_DIR, STORAGE_DIR default to .data/);
# a production deployment sets DATABASE_URL and STORAGE_URL and keeps nothing here.
RUN mkdir .data && chown node:node .data
ENV API_HOST=0.0.0.0 API_PORT=3000
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "/app/healthcheck.mjs", "API_PORT", "3000"]
# API_NODE_FLAGS of api/src/node-flags.ts (how the heap is sized: why there).
CMD ["node", "--max-semi-space-size=64", "--heap-growing-percent=100", "--import", "tsx", "src/server.ts"]
