# One image for api and worker (the compose services pick the entry point). Both run the compiled
# JavaScript under dist/ (`npm run build`: SWC, see scripts/build.cjs).
FROM node:26-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
COPY prisma ./prisma
COPY prisma.config.ts tsconfig.base.json ./
COPY libs/config/src ./libs/config/src
# No `prepare` here: it would compile sources that are not copied yet (the build step below does).
# Scripts off also leaves the `node` dev dependency's runtime out: the image's own Node is 26.
RUN npm ci --ignore-scripts && npx prisma generate
COPY . .
RUN NX_DAEMON=false npm run build
ENV SCHEDLAB_API_HOST=0.0.0.0
EXPOSE 3000
CMD ["node", "--enable-source-maps", "dist/apps/api/src/main.js"]
