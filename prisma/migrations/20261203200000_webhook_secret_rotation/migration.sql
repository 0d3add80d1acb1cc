-- Webhook secret rotation: the previous signing secret stays valid (encrypted, signed with as
-- well) until it expires, so receivers switch to the new one without refusing a delivery.

-- AlterTable
ALTER TABLE "WebhookEndpoint" ADD COLUMN     "previousSecretCiphertext" BYTEA,
ADD COLUMN     "previousSecretExpiresAt" TIMESTAMPTZ(3);
