-- CreateEnum
CREATE TYPE "RunStatus" AS ENUM ('queued', 'running', 'succeeded', 'failed', 'cancelled');

-- CreateEnum
CREATE TYPE "PlacementStatus" AS ENUM ('scheduled', 'unschedulable', 'gated', 'error');

-- CreateEnum
CREATE TYPE "WebhookDeliveryStatus" AS ENUM ('pending', 'delivering', 'succeeded', 'failed', 'abandoned');

-- CreateTable
CREATE TABLE "api_keys" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "scopes" TEXT[],
    "revoked_at" TIMESTAMP(3),
    "last_used_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "snapshots" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "labels" JSONB NOT NULL DEFAULT '{}',
    "content_hash" TEXT NOT NULL,
    "counts" JSONB NOT NULL,
    "warnings" JSONB NOT NULL DEFAULT '[]',
    "size_bytes" INTEGER NOT NULL,
    "content" BYTEA NOT NULL,
    "deleted_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "snapshots_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "scheduler_profiles" (
    "id" UUID NOT NULL,
    "tenant_id" UUID,
    "name" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "config" JSONB NOT NULL,
    "description" TEXT,
    "shared" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "scheduler_profiles_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "scenarios" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "snapshot_id" UUID,
    "name" TEXT NOT NULL,
    "document" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "scenarios_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "simulation_runs" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "snapshot_id" UUID NOT NULL,
    "scenario_id" UUID,
    "profile_id" UUID,
    "profile_name" TEXT NOT NULL,
    "profile_version" INTEGER NOT NULL,
    "seed" INTEGER NOT NULL DEFAULT 0,
    "options" JSONB NOT NULL DEFAULT '{}',
    "status" "RunStatus" NOT NULL DEFAULT 'queued',
    "phase" TEXT,
    "percent" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "pods_processed" INTEGER NOT NULL DEFAULT 0,
    "pods_total" INTEGER,
    "error" TEXT,
    "engine_version" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "cancel_requested_at" TIMESTAMP(3),
    "parent_id" UUID,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMP(3),
    "finished_at" TIMESTAMP(3),

    CONSTRAINT "simulation_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "run_results" (
    "run_id" UUID NOT NULL,
    "summary" JSONB NOT NULL,
    "storage_summary" JSONB,
    "analysis" JSONB,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "run_results_pkey" PRIMARY KEY ("run_id")
);

-- CreateTable
CREATE TABLE "placements" (
    "run_id" UUID NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "pod_key" TEXT NOT NULL,
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "owner_kind" TEXT,
    "owner_name" TEXT,
    "node" TEXT,
    "zone" TEXT,
    "status" "PlacementStatus" NOT NULL,
    "priority" INTEGER NOT NULL DEFAULT 0,
    "message" TEXT,
    "nominated_node" TEXT,
    "victims" JSONB,

    CONSTRAINT "placements_pkey" PRIMARY KEY ("run_id","ordinal")
);

-- CreateTable
CREATE TABLE "pod_explanations" (
    "run_id" UUID NOT NULL,
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "explanation" JSONB NOT NULL,

    CONSTRAINT "pod_explanations_pkey" PRIMARY KEY ("run_id","namespace","name")
);

-- CreateTable
CREATE TABLE "webhook_endpoints" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "event_types" TEXT[],
    "secret" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "disabled_reason" TEXT,
    "consecutive_failures" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "webhook_endpoints_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" TEXT NOT NULL,
    "endpoint_id" UUID NOT NULL,
    "event_type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "status" "WebhookDeliveryStatus" NOT NULL DEFAULT 'pending',
    "attempt_count" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_attempts" (
    "id" UUID NOT NULL,
    "delivery_id" TEXT NOT NULL,
    "status_code" INTEGER,
    "latency_ms" INTEGER NOT NULL,
    "response_snippet" TEXT,
    "error" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys"("hash");

-- CreateIndex
CREATE INDEX "api_keys_tenant_id_created_at_idx" ON "api_keys"("tenant_id", "created_at");

-- CreateIndex
CREATE INDEX "snapshots_tenant_id_created_at_idx" ON "snapshots"("tenant_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "snapshots_tenant_id_content_hash_key" ON "snapshots"("tenant_id", "content_hash");

-- CreateIndex
CREATE INDEX "scheduler_profiles_name_version_idx" ON "scheduler_profiles"("name", "version");

-- CreateIndex
CREATE UNIQUE INDEX "scheduler_profiles_tenant_id_name_version_key" ON "scheduler_profiles"("tenant_id", "name", "version");

-- CreateIndex
CREATE INDEX "scenarios_tenant_id_created_at_idx" ON "scenarios"("tenant_id", "created_at");

-- CreateIndex
CREATE INDEX "simulation_runs_tenant_id_created_at_idx" ON "simulation_runs"("tenant_id", "created_at");

-- CreateIndex
CREATE INDEX "simulation_runs_parent_id_idx" ON "simulation_runs"("parent_id");

-- CreateIndex
CREATE INDEX "simulation_runs_status_idx" ON "simulation_runs"("status");

-- CreateIndex
CREATE INDEX "placements_run_id_status_ordinal_idx" ON "placements"("run_id", "status", "ordinal");

-- CreateIndex
CREATE INDEX "placements_run_id_node_ordinal_idx" ON "placements"("run_id", "node", "ordinal");

-- CreateIndex
CREATE INDEX "placements_run_id_namespace_ordinal_idx" ON "placements"("run_id", "namespace", "ordinal");

-- CreateIndex
CREATE INDEX "placements_run_id_owner_kind_owner_name_ordinal_idx" ON "placements"("run_id", "owner_kind", "owner_name", "ordinal");

-- CreateIndex
CREATE UNIQUE INDEX "placements_run_id_namespace_name_key" ON "placements"("run_id", "namespace", "name");

-- CreateIndex
CREATE INDEX "webhook_endpoints_tenant_id_created_at_idx" ON "webhook_endpoints"("tenant_id", "created_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_endpoint_id_created_at_idx" ON "webhook_deliveries"("endpoint_id", "created_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_status_next_attempt_at_idx" ON "webhook_deliveries"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "webhook_attempts_delivery_id_created_at_idx" ON "webhook_attempts"("delivery_id", "created_at");

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "snapshots" ADD CONSTRAINT "snapshots_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scheduler_profiles" ADD CONSTRAINT "scheduler_profiles_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scenarios" ADD CONSTRAINT "scenarios_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scenarios" ADD CONSTRAINT "scenarios_snapshot_id_fkey" FOREIGN KEY ("snapshot_id") REFERENCES "snapshots"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "simulation_runs" ADD CONSTRAINT "simulation_runs_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "simulation_runs" ADD CONSTRAINT "simulation_runs_snapshot_id_fkey" FOREIGN KEY ("snapshot_id") REFERENCES "snapshots"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "simulation_runs" ADD CONSTRAINT "simulation_runs_scenario_id_fkey" FOREIGN KEY ("scenario_id") REFERENCES "scenarios"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "simulation_runs" ADD CONSTRAINT "simulation_runs_profile_id_fkey" FOREIGN KEY ("profile_id") REFERENCES "scheduler_profiles"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "simulation_runs" ADD CONSTRAINT "simulation_runs_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "simulation_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "run_results" ADD CONSTRAINT "run_results_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "simulation_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "placements" ADD CONSTRAINT "placements_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "simulation_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "pod_explanations" ADD CONSTRAINT "pod_explanations_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "simulation_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- ─── Built-in scheduler profiles (tenant_id NULL: visible to every tenant) ──────────
INSERT INTO "scheduler_profiles" ("id", "tenant_id", "name", "version", "config", "description", "shared") VALUES
  ('00000000-0000-4000-8000-000000000001', NULL, 'default', 1,
   '{"apiVersion":"kubescheduler.config.k8s.io/v1","kind":"KubeSchedulerConfiguration"}',
   'kube-scheduler defaults', true),
  ('00000000-0000-4000-8000-000000000002', NULL, 'bin-packing', 1,
   '{"apiVersion":"kubescheduler.config.k8s.io/v1","kind":"KubeSchedulerConfiguration","profiles":[{"schedulerName":"default-scheduler","pluginConfig":[{"name":"NodeResourcesFit","args":{"scoringStrategy":{"type":"MostAllocated","resources":[{"name":"cpu","weight":1},{"name":"memory","weight":1}]}}}]}]}',
   'NodeResourcesFit MostAllocated: fill nodes before using new ones', true),
  ('00000000-0000-4000-8000-000000000003', NULL, 'spread', 1,
   '{"apiVersion":"kubescheduler.config.k8s.io/v1","kind":"KubeSchedulerConfiguration","profiles":[{"schedulerName":"default-scheduler","plugins":{"score":{"enabled":[{"name":"PodTopologySpread","weight":5}]}},"pluginConfig":[{"name":"PodTopologySpread","args":{"defaultingType":"List","defaultConstraints":[{"maxSkew":1,"topologyKey":"topology.kubernetes.io/zone","whenUnsatisfiable":"ScheduleAnyway"},{"maxSkew":1,"topologyKey":"kubernetes.io/hostname","whenUnsatisfiable":"ScheduleAnyway"}]}}]}]}',
   'PodTopologySpread weighted up, spreading every pod across zones and nodes', true);

-- ─── Row-level security (defence in depth) ──────────────────────────────────────────
-- The api's tenant-scoped data layer switches to the role below for each transaction
-- (SET LOCAL ROLE schedlab_app) and sets app.tenant_id; the policies then confine every
-- statement to that tenant. The table owner (the migration role, and the operator paths and
-- the worker that connect as it without switching role) bypasses RLS, as PostgreSQL does for
-- owners without FORCE ROW LEVEL SECURITY. Roles are cluster-wide, hence the guarded create
-- (several databases on one server run this migration, possibly at the same time).
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'schedlab_app') THEN
    CREATE ROLE schedlab_app NOLOGIN;
  END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
END $$;

DO $$
BEGIN
  EXECUTE format('GRANT schedlab_app TO %I', current_user);
EXCEPTION WHEN others THEN NULL; -- superusers may SET ROLE without membership
END $$;

GRANT USAGE ON SCHEMA public TO schedlab_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO schedlab_app;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO schedlab_app;

-- The tenant of the current transaction, or NULL when none is set (then nothing matches).
CREATE FUNCTION app_current_tenant() RETURNS uuid LANGUAGE sql STABLE AS
$$ SELECT NULLIF(current_setting('app.tenant_id', true), '')::uuid $$;
GRANT EXECUTE ON FUNCTION app_current_tenant() TO schedlab_app;

ALTER TABLE "tenants" ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON "tenants" USING ("id" = app_current_tenant());

ALTER TABLE "api_keys" ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON "api_keys" USING ("tenant_id" = app_current_tenant());

ALTER TABLE "ping_jobs" ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON "ping_jobs" USING ("tenant_id" = app_current_tenant());

ALTER TABLE "snapshots" ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON "snapshots" USING ("tenant_id" = app_current_tenant());

-- Built-ins and shared profiles are readable by all; writes only to the tenant's own rows.
ALTER TABLE "scheduler_profiles" ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_read ON "scheduler_profiles" FOR SELECT
  USING ("tenant_id" IS NULL OR "shared" OR "tenant_id" = app_current_tenant());
CREATE POLICY tenant_write ON "scheduler_profiles" FOR INSERT
  WITH CHECK ("tenant_id" = app_current_tenant());

ALTER TABLE "scenarios" ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON "scenarios" USING ("tenant_id" = app_current_tenant());

ALTER TABLE "simulation_runs" ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON "simulation_runs" USING ("tenant_id" = app_current_tenant());

ALTER TABLE "webhook_endpoints" ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON "webhook_endpoints" USING ("tenant_id" = app_current_tenant());

-- Tables reached through a run or an endpoint: visible when the parent row is (its own
-- policy applies inside the subquery).
ALTER TABLE "run_results" ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON "run_results"
  USING (EXISTS (SELECT 1 FROM "simulation_runs" r WHERE r."id" = "run_id"));

ALTER TABLE "placements" ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON "placements"
  USING (EXISTS (SELECT 1 FROM "simulation_runs" r WHERE r."id" = "run_id"));

ALTER TABLE "pod_explanations" ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON "pod_explanations"
  USING (EXISTS (SELECT 1 FROM "simulation_runs" r WHERE r."id" = "run_id"));

ALTER TABLE "webhook_deliveries" ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON "webhook_deliveries"
  USING (EXISTS (SELECT 1 FROM "webhook_endpoints" e WHERE e."id" = "endpoint_id"));

ALTER TABLE "webhook_attempts" ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON "webhook_attempts"
  USING (EXISTS (SELECT 1 FROM "webhook_deliveries" d WHERE d."id" = "delivery_id"));
