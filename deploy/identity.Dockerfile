# The bundled identity provider (identity/): for a demo or staging installation. Production runs
# a real Keycloak with identity/keycloak/realm-main.json instead (docs/deploy.md#identity). One
# copy only: its users, keys and outbox are files in IDENTITY_DATA_DIR and its sessions in memory.
# Started as `npm start` starts it (scripts/services.mjs: `node --import tsx src/server.ts`).
#   docker build -f deploy/identity.Dockerfile -t portal-identity .
ARG NODE_IMAGE=node:20.20.2-bookworm-slim

FROM ${NODE_IMAGE} AS build
RUN npm install --global pnpm@9.15.9
WORKDIR /repo
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
RUN pnpm fetch --prod
COPY . .
RUN pnpm --filter @portal/identity deploy --prod --offline /out

FROM ${NODE_IMAGE}
WORKDIR /app/identity
COPY --from=build /out/package.json ./
COPY --from=build /out/node_modules ./node_modules
COPY --from=build /out/src ./src
COPY deploy/healthcheck.mjs /app/healthcheck.mjs
# IDENTITY_DATA_DIR's default: signing keys, users and the outbox; mount a volume here.
RUN mkdir .data && chown node:node .data
ENV BIND_HOST=0.0.0.0 IDENTITY_PORT=8180
USER node
EXPOSE 8180
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "/app/healthcheck.mjs", "IDENTITY_PORT", "8180"]
CMD ["node", "--import", "tsx", "src/server.ts"]
