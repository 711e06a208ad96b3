# Balancer pools API: the image Cloud Run runs (see infra/ and the README's deployment section).
# Build:  docker build -t <region>-docker.pkg.dev/<project>/balancer-pools/api:<tag> .
ARG NODE_IMAGE=node:22-bookworm-slim

# ---- build: full dependency tree (TypeScript), compile src/ to dist/ ----
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# No install scripts (package.json allowScripts denies them too): better-sqlite3 ships prebuilt
# binaries, and nothing else needs a build step.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json ./
# src/tsconfig.json is the build configuration (src/ only, to dist/src/).
COPY src ./src
RUN npm run build

# ---- runtime: production dependencies and the compiled output only ----
FROM ${NODE_IMAGE} AS runtime
# glibc keeps freed large blocks (store rows, JSON bodies) in its heap and gives threads their own
# arenas: RSS no JavaScript holds. These return large blocks to the system (docs/ARCHITECTURE.md, Memory).
ENV NODE_ENV=production \
    PORT=8090 \
    MALLOC_ARENA_MAX=2 \
    MALLOC_MMAP_THRESHOLD_=65536 \
    MALLOC_TRIM_THRESHOLD_=1048576
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
# Writable only for the embedded SQLite store (local runs); Cloud Run uses Firestore.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 8090
CMD ["node", "dist/src/main.js"]
