-- AlterTable
ALTER TABLE "Tenant" ADD COLUMN     "deletedAt" TIMESTAMPTZ(3);

-- Overrides of a plan policy belong to each tenant apart: the unique key includes the tenant
DROP INDEX "Override_tenantId_idx";
DROP INDEX "Override_policyId_match_identifier_key";
CREATE INDEX "Override_policyId_idx" ON "Override"("policyId");
CREATE UNIQUE INDEX "Override_tenantId_policyId_match_identifier_key" ON "Override"("tenantId", "policyId", "match", "identifier");
