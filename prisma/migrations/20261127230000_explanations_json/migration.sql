-- Compact explanations are stored as json (the text as written, checked for syntax) instead of
-- jsonb, which PostgreSQL parsed into its binary form row by row, and compressed with lz4
-- instead of pglz: together most of a large run's write (10,000 explanations, 43 MB of JSON:
-- ~0.7 CPU s in the backend as jsonb with pglz, ~0.2 s as json with lz4). Nothing queries inside
-- them with jsonb operators. Existing rows keep their content.

-- AlterTable
ALTER TABLE "pod_explanations" ALTER COLUMN "explanation" SET DATA TYPE JSON USING "explanation"::json;

-- A server built without lz4 keeps pglz (the values are the same either way).
DO $$
BEGIN
  ALTER TABLE "pod_explanations" ALTER COLUMN "explanation" SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  RAISE NOTICE 'lz4 is not available: pod_explanations.explanation keeps the default compression';
END $$;
