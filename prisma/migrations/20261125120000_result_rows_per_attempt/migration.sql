-- Result rows are written in batches by the execution that claimed the run, outside any long
-- transaction, tagged with its claim (simulation_runs.attempts); readers see only the rows of the
-- attempt that finished the run. See docs/worker.md, "Finish, once".

-- DropIndex
DROP INDEX "placements_run_id_namespace_name_key";

-- DropIndex
DROP INDEX "placements_run_id_namespace_ordinal_idx";

-- DropIndex
DROP INDEX "placements_run_id_node_ordinal_idx";

-- DropIndex
DROP INDEX "placements_run_id_owner_kind_owner_name_ordinal_idx";

-- DropIndex
DROP INDEX "placements_run_id_status_ordinal_idx";

-- AlterTable
ALTER TABLE "placements" DROP CONSTRAINT "placements_pkey",
ADD COLUMN     "attempt" INTEGER NOT NULL DEFAULT 0,
ADD CONSTRAINT "placements_pkey" PRIMARY KEY ("run_id", "attempt", "ordinal");

-- AlterTable
ALTER TABLE "pod_explanations" DROP CONSTRAINT "pod_explanations_pkey",
ADD COLUMN     "attempt" INTEGER NOT NULL DEFAULT 0,
ADD CONSTRAINT "pod_explanations_pkey" PRIMARY KEY ("run_id", "attempt", "namespace", "name");

-- Rows written before this migration belong to the execution that finished their run.
UPDATE "placements" p SET "attempt" = r."attempts" FROM "simulation_runs" r WHERE r."id" = p."run_id";
UPDATE "pod_explanations" e SET "attempt" = r."attempts" FROM "simulation_runs" r WHERE r."id" = e."run_id";

-- CreateIndex
CREATE INDEX "placements_run_id_attempt_status_ordinal_idx" ON "placements"("run_id", "attempt", "status", "ordinal");

-- CreateIndex
CREATE INDEX "placements_run_id_attempt_node_ordinal_idx" ON "placements"("run_id", "attempt", "node", "ordinal");

-- CreateIndex
CREATE INDEX "placements_run_id_attempt_namespace_ordinal_idx" ON "placements"("run_id", "attempt", "namespace", "ordinal");

-- CreateIndex
CREATE INDEX "placements_run_id_attempt_owner_kind_owner_name_ordinal_idx" ON "placements"("run_id", "attempt", "owner_kind", "owner_name", "ordinal");

-- CreateIndex
CREATE UNIQUE INDEX "placements_run_id_attempt_namespace_name_key" ON "placements"("run_id", "attempt", "namespace", "name");

