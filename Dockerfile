# One image for every process of the service, all compiled to dist/: the API (the default command), the update
# worker, the platform simulator and the operator CLI. docker-compose.yml builds it once and runs it as three
# services; the CLI runs in it with `docker compose run --rm api node dist/src/cli.js <command>`.
# test/e2e/docker-image.e2e.spec.ts follows these instructions without Docker (the COPY lines through
# .dockerignore, the build, the pruned dependencies) and runs the compiled CLI from the result; it fails on an
# instruction it does not know, so a change here is a change there.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json nest-cli.json ormconfig.ts ./
COPY src ./src
COPY scripts ./scripts
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production
# malloc backs the API's typed arrays with huge pages (src/common/lifecycle/huge-pages.ts); bookworm's glibc reads it.
ENV GLIBC_TUNABLES=glibc.malloc.hugetlb=1
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# package.json for `npm run cli` (scripts/cli.js runs dist/ as it is: there are no sources to rebuild from).
COPY package.json ./
COPY scripts/cli.js ./scripts/
# The image store's default directory (IMAGE_STORE_DIR); docker-compose.yml mounts a volume on it.
RUN mkdir -p /app/data/images && chown node:node /app/data/images
USER node
# The API; the simulator service listens on 3100.
EXPOSE 3000 3100
# The API's young generation (src/common/lifecycle/young-generation.ts).
CMD ["node", "--min-semi-space-size=64", "--max-semi-space-size=64", "dist/src/main.js"]
