# syntax=docker/dockerfile:1
# The production image: the API with its embedded MQTT broker and workers, serving the built web app.
# Build: docker build -t water-vending .   Run: docker compose up (docker-compose.yml), or see
# docs/operations.md ("Configuration") for the variables.

ARG NODE_IMAGE=node:20-bookworm-slim

# Every workspace's manifest, so that npm sees the same tree as the committed lockfile.
FROM ${NODE_IMAGE} AS manifests
WORKDIR /app
COPY package.json package-lock.json ./
COPY libs/contracts/package.json libs/contracts/
COPY broker/package.json broker/
COPY apps/api/package.json apps/api/
COPY apps/simulator/package.json apps/simulator/
COPY apps/web/package.json apps/web/
COPY apps/demo/package.json apps/demo/

# Build: all dependencies (development ones included), then the TypeScript projects and the web app.
FROM manifests AS build
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json ./
COPY libs/contracts libs/contracts
COPY broker broker
COPY apps apps
RUN npm run build

# Runtime dependencies only: those of the API and the workspaces it uses (contracts, broker, simulator).
FROM manifests AS runtime-deps
RUN npm ci --omit=dev --workspace apps/api --no-audit --no-fund && npm cache clean --force

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    PORT=3000 \
    MQTT_PORT=1883 \
    WEB_DIST=/app/apps/web/dist
WORKDIR /app
COPY --from=runtime-deps /app ./
COPY --from=build /app/libs/contracts/dist libs/contracts/dist
COPY --from=build /app/broker/dist broker/dist
COPY --from=build /app/apps/simulator/dist apps/simulator/dist
COPY --from=build /app/apps/api/dist apps/api/dist
COPY --from=build /app/apps/web/dist apps/web/dist
# The files belong to root and are only read; the program runs as the image's unprivileged user.
USER node
EXPOSE 3000 1883
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/api/health/live`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# A young generation of 64 MB semi-spaces (16 by default): a sales batch's short-lived objects die young instead of
# being promoted, and the worker stays on time at its lower priority (docs/performance.md, "A larger young
# generation"); about 100 MB more per process. The same flag is in npm start and the benchmarks' stack.
CMD ["node", "--max-semi-space-size=64", "apps/api/dist/main.js"]
