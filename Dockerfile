# One image for both processes: `node dist/src/main.js` (API) and `node dist/src/worker.js` (worker).
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
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
# The image store's default directory (IMAGE_STORE_DIR); docker-compose.yml mounts a volume on it.
RUN mkdir -p /app/data/images && chown node:node /app/data/images
USER node
EXPOSE 3000
CMD ["node", "dist/src/main.js"]
