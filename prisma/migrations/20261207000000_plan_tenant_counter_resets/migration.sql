-- Whether a plan lets its tenants' admins reset an identifier's counters (off: operators only).
ALTER TABLE "Plan" ADD COLUMN "tenantCounterResets" BOOLEAN NOT NULL DEFAULT false;
