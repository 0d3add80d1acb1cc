-- AlterTable
ALTER TABLE "Policy" ADD COLUMN     "reservationTtlMs" INTEGER;

-- the policy lib's bounds for reservations.ttlMs (1 s .. 24 h)
ALTER TABLE "Policy" ADD CONSTRAINT "Policy_reservationTtlMs_range" CHECK ("reservationTtlMs" IS NULL OR "reservationTtlMs" BETWEEN 1000 AND 86400000);
