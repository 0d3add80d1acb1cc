-- A plan may lower the platform cap on sliding-window-log limits (CONTROL_PLANE_SLIDING_LOG_MAX_LIMIT)
-- for the templates, tenant policies and overrides under it. Null keeps the platform cap.

-- AlterTable
ALTER TABLE "Plan" ADD COLUMN     "slidingLogMaxLimit" INTEGER;
