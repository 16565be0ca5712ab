# The production image: compiled JavaScript (dist/) and the built web apps, run by a
# non-root user. docs/deploy.md explains the image and compose.yaml.
# No container registry is reachable from the development machines: this file has not
# been built there (the same commands and environment are proven as processes by
# test/topology/topology.test.ts).

# ---- build: dev dependencies, tsc, the web build ------------------------------------
FROM node:20-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 downloads a prebuilt binary; these build it when none matches.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
COPY web/package.json web/
# Dependencies first (a layer that only changes with the lockfile); no scripts yet: the
# `prepare` web build needs the sources.
RUN npm ci --ignore-scripts && npm rebuild better-sqlite3 esbuild
COPY . .
RUN npm run build && npm prune --omit=dev

# ---- run: production dependencies, dist/ and web/dist only ----------------------------
FROM node:20-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 DATA_DIR=/data METRICS_HOST=0.0.0.0 METRICS_PORT=9464
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/bin ./bin
COPY --from=build /app/dist ./dist
COPY --from=build /app/web/package.json ./web/package.json
COPY --from=build /app/web/dist ./web/dist
# The SQLite store and a generated master key live in /data (unused with PostgreSQL and
# MASTER_KEY set, as in compose.yaml); the app's files stay root-owned and read-only to it.
RUN mkdir /data && chown node:node /data
USER node
EXPOSE 8080 9464
# Ready = the store answers, migrations are current, Redis answers (GET /readyz); 503 while
# draining on SIGTERM (SHUTDOWN_DRAIN_MS). The worker has no API port: compose.yaml gives
# it the same check on its metrics listener (METRICS_PORT), which answers /readyz too.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["node", "bin/topup.js"]
CMD ["serve"]
