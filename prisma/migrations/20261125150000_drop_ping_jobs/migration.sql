-- The ping example (api → queue → worker → database round trip) is gone: the simulations queue
-- proves the same path. Its row-level-security policy goes with the table.

-- DropForeignKey
ALTER TABLE "ping_jobs" DROP CONSTRAINT "ping_jobs_tenant_id_fkey";

-- DropTable
DROP TABLE "ping_jobs";

-- DropEnum
DROP TYPE "JobStatus";

