// Integration tests start real apps and run Prisma's CLI against PostgreSQL and Redis. This only
// bounds a hung run; no test asserts on time. (Per-project `testTimeout` is ignored by Jest when
// projects run together, hence a setup file.)
jest.setTimeout(60_000);
