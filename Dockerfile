# syntax=docker/dockerfile:1
# One image per app, all from this file and the repository root as context:
#   docker build --target data-plane -t sluice-data-plane .
# (docker-compose.yml builds each service with its target.) The dependency install and the build
# are shared stages, so the four images reuse one `npm ci` layer and one build.

FROM node:20-bookworm-slim AS base
WORKDIR /app

# Manifests only, so the `npm ci` layer is reused until a dependency changes. The postinstall
# applies patches/ and generates the Prisma client, hence the schema and Prisma config.
# npm ci needs every workspace's package.json: keep this list in step with the workspaces.
FROM base AS deps
COPY package.json package-lock.json prisma.config.ts ./
COPY patches/ patches/
COPY prisma/schema.prisma prisma/
COPY tools/dev/prisma.mjs tools/dev/package.json tools/dev/
COPY apps/control-plane/package.json apps/control-plane/
COPY apps/dashboard/package.json apps/dashboard/
COPY apps/data-plane/package.json apps/data-plane/
COPY apps/worker/package.json apps/worker/
COPY libs/algorithms/package.json libs/algorithms/
COPY libs/config/package.json libs/config/
COPY libs/db/package.json libs/db/
COPY libs/engine/package.json libs/engine/
COPY libs/nest-kit/package.json libs/nest-kit/
COPY libs/policy/package.json libs/policy/
COPY libs/sdk/package.json libs/sdk/
COPY libs/testing/package.json libs/testing/
COPY libs/usage/package.json libs/usage/
COPY libs/webhooks/package.json libs/webhooks/
COPY bench/package.json bench/
RUN npm ci

FROM deps AS build
ENV NX_DAEMON=false NX_NO_CLOUD=true NX_TUI=false NEXT_TELEMETRY_DISABLED=1
COPY . .
RUN npx nx run-many -t build --projects=tag:type:app
# Dev tools (compilers, test runners) are not needed at run time. The Prisma CLI must stay for
# the control plane's `migrate deploy`: npm keeps it as an optional peer of @prisma/client.
RUN npm prune --omit=dev --ignore-scripts && node -e "require.resolve('prisma/build/index.js')"

# What every Nest app runs on: production node_modules and the built libs. Libs load their Lua
# scripts from lua/ beside dist/, so each lib folder is copied whole (sources are small).
FROM base AS nest-runtime
ENV NODE_ENV=production HOST=0.0.0.0
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/libs libs
USER node

FROM nest-runtime AS control-plane
# Migrations run from this image before the app starts: node tools/dev/prisma.mjs migrate deploy
COPY --from=build /app/prisma.config.ts ./
COPY --from=build /app/prisma prisma
COPY --from=build /app/tools/dev/prisma.mjs tools/dev/
COPY --from=build /app/apps/control-plane/package.json apps/control-plane/
COPY --from=build /app/apps/control-plane/dist apps/control-plane/dist
EXPOSE 4000
CMD ["node", "apps/control-plane/dist/main.js"]

FROM nest-runtime AS data-plane
COPY --from=build /app/apps/data-plane/package.json apps/data-plane/
COPY --from=build /app/apps/data-plane/dist apps/data-plane/dist
EXPOSE 4100
CMD ["node", "apps/data-plane/dist/main.js"]

FROM nest-runtime AS worker
COPY --from=build /app/apps/worker/package.json apps/worker/
COPY --from=build /app/apps/worker/dist apps/worker/dist
EXPOSE 4200
CMD ["node", "apps/worker/dist/main.js"]

# The dashboard's own server (dist/server: Next's handler plus the /graphql proxy to the control
# plane, which reads CONTROL_PLANE_URL at start) on the production node_modules, with Next's build.
FROM nest-runtime AS dashboard
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1
COPY --from=build /app/apps/dashboard/package.json /app/apps/dashboard/next.config.ts apps/dashboard/
COPY --from=build /app/apps/dashboard/.next apps/dashboard/.next
COPY --from=build /app/apps/dashboard/dist apps/dashboard/dist
# Next may cache rendered output at run time; only that folder is writable by the app user.
USER root
RUN mkdir -p apps/dashboard/.next/cache && chown node:node apps/dashboard/.next/cache
USER node
EXPOSE 3000
CMD ["node", "apps/dashboard/dist/server/main.js"]
