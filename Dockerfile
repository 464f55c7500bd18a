# Vexil in a container. The embedded database lives in /app/data: mount a volume there (or set
# DATABASE_URL to use PostgreSQL instead). README, "Running it in a container".
#   docker build -t vexil .
#   docker run -p 4242:4242 -v vexil-data:/app/data -e INIT_ADMIN_PASSWORD=... vexil

FROM node:20-bookworm-slim AS build
WORKDIR /app
# Node 20 ships npm 10; the lockfile and package.json's `allowScripts` are npm 11's (README).
RUN npm install -g npm@11 --no-audit --no-fund
COPY . .
# `npm install` generates the Prisma client and builds dist/ and ui/dist (postinstall); the
# development packages it needed for that are then removed.
RUN npm install --no-audit --no-fund && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4242 \
    VEXIL_DATA_DIR=/app/data \
    MALLOC_ARENA_MAX=2 \
    MALLOC_MMAP_THRESHOLD_=131072 \
    MALLOC_TRIM_THRESHOLD_=131072
COPY --from=build --chown=node:node /app /app
RUN mkdir -p /app/data && chown node:node /app/data
USER node
VOLUME /app/data
EXPOSE 4242
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/ready`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# What `npm start` runs, without npm in between: the server gets SIGTERM itself and shuts down
# cleanly (subscriptions ended, the embedded database flushed and unlocked).
CMD ["node", "--enable-source-maps", "dist/server.js"]
