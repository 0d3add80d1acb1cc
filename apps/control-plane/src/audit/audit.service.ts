import { Injectable } from '@nestjs/common';
import type { ActorType, Prisma } from '@sluice/db';

/** Who did it, and from which request. */
export interface AuditActor {
  type: ActorType;
  /** The user (or API key) id; null for the system or an anonymous caller. */
  id: string | null;
  requestId: string | null;
  ip: string | null;
}

export interface AuditEntry {
  /** `<entity>.<verb>`, e.g. `tenant.create`, `auth.login_failed`. */
  action: string;
  entityType: string;
  entityId: string;
  tenantId?: string | null;
  before?: Prisma.InputJsonValue;
  after?: Prisma.InputJsonValue;
}

/** The actor of work the platform does by itself (CLI, seed, relay). */
export const SYSTEM_ACTOR: AuditActor = { type: 'system', id: null, requestId: null, ip: null };

/**
 * Appends to the audit log inside the caller's transaction, so an entry exists exactly when the
 * change it describes was committed.
 */
@Injectable()
export class AuditService {
  async record(tx: Prisma.TransactionClient, actor: AuditActor, entry: AuditEntry): Promise<void> {
    await tx.auditLog.create({
      data: {
        actorType: actor.type,
        actorId: actor.id,
        requestId: actor.requestId,
        ip: actor.ip,
        tenantId: entry.tenantId ?? null,
        action: entry.action,
        entityType: entry.entityType,
        entityId: entry.entityId,
        ...(entry.before === undefined ? {} : { before: entry.before }),
        ...(entry.after === undefined ? {} : { after: entry.after }),
      },
    });
  }
}
