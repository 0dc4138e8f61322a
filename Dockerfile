# One image for api and worker (the compose services pick the entry point).
FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
COPY prisma ./prisma
COPY prisma.config.ts tsconfig.base.json ./
COPY libs/config/src ./libs/config/src
RUN npm ci
COPY . .
ENV API_HOST=0.0.0.0 SWC_NODE_PROJECT=/app/tsconfig.base.json
EXPOSE 3000
CMD ["node", "-r", "@swc-node/register", "apps/api/src/main.ts"]
