// Integration tests start real apps and run Prisma's CLI against PostgreSQL and Redis. This only
// bounds a hung run; no test asserts on time. (Per-project `testTimeout` is ignored by Jest when
// projects run together, hence a setup file.) Three minutes: on a shared 2-core machine at load
// 10, a worker's first run of a spec file once took past one minute.
jest.setTimeout(180_000);
