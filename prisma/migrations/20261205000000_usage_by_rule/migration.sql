-- Per-rule denial counts and fail-open allows in the usage roll-ups. Rows written before this
-- migration have empty maps and 0: their minutes say nothing per rule.
ALTER TABLE "UsageMinute"
  ADD COLUMN "deniedByRule" JSONB NOT NULL DEFAULT '{}',
  ADD COLUMN "shadowDeniedByRule" JSONB NOT NULL DEFAULT '{}',
  ADD COLUMN "candidateDeniedByRule" JSONB NOT NULL DEFAULT '{}',
  ADD COLUMN "failOpen" BIGINT NOT NULL DEFAULT 0;
