import { Injectable } from '@nestjs/common';
import { newId, type Prisma } from '@sluice/db';
import type { TenantConfigInput } from '@sluice/policy';
import { isDeepStrictEqual } from 'node:util';
import { asJson } from '../database/json';
import { AppError, badUserInputOf, type FieldIssue } from '../graphql/app-error';
import { OutboxService } from '../outbox/outbox.service';
import { compileState, type LocatedIssue } from '../policy-config/compile-state';
import { toPolicyDocument, type PolicyDocument } from '../policy-config/policy-document';
import { toConfigInput, type TenantState } from '../policy-config/tenant-state';
import { TenantStateRepository } from './tenant-state.repository';

type Db = Prisma.TransactionClient;

export type VersionReason = 'publish' | 'rollback' | 'import';

/** What a `PolicyVersion` keeps: the tenant's own document and its effective configuration. */
export interface VersionContent {
  document: PolicyDocument;
  config: TenantConfigInput;
}

export interface CommitOptions {
  reason?: VersionReason;
  rolledBackFrom?: number;
  actorId?: string | null;
  /** Queue the publish (default); the relay, publishing already, makes a first version without. */
  enqueue?: boolean;
  /**
   * Turns the policy lib's complaints into the caller's field issues (e.g. a rule's capacity into
   * `input.rules.0.capacity`); unmapped ones are reported at `input`.
   */
  fieldOf?: (issue: LocatedIssue) => string | undefined;
}

/** The latest version, or undefined before the first. */
export interface CommittedVersion {
  version: number;
  /** False when the effective configuration did not change (no new version was written). */
  created: boolean;
}

/**
 * Versions are written in the transaction of the change that makes them: the change, its
 * compiled result (validated by the policy lib: a change that would leave the tenant invalid is
 * refused with field errors and writes nothing), the numbered snapshot and the outbox row commit
 * together, and the relay publishes exactly that snapshot.
 */
@Injectable()
export class PolicyVersionsService {
  constructor(
    private readonly states: TenantStateRepository,
    private readonly outbox: OutboxService,
  ) {}

  /**
   * Call after changing the tenant's rows inside `tx` (having taken `states.lock`). Writes a new
   * version when the effective configuration changed (always for a rollback or an import) and
   * queues the publish. Throws BAD_USER_INPUT when the result does not compile.
   */
  async commit(tx: Db, tenantId: string, options: CommitOptions = {}): Promise<CommittedVersion> {
    const state = await this.states.load(tx, tenantId);
    if (!state) throw AppError.notFound('No such tenant.');
    return this.commitState(tx, state, options);
  }

  /** What `commitState` checks, without writing: throws BAD_USER_INPUT when it does not compile. */
  validate(state: TenantState, fieldOf?: CommitOptions['fieldOf']): void {
    const compiled = compileState(state);
    if ('issues' in compiled) throw toBadInput(compiled.issues, fieldOf);
  }

  async commitState(
    tx: Db,
    state: TenantState,
    options: CommitOptions = {},
  ): Promise<CommittedVersion> {
    this.validate(state, options.fieldOf);
    const reason = options.reason ?? 'publish';
    const config = asJson<TenantConfigInput>(toConfigInput(state));
    const latest = await tx.policyVersion.findFirst({
      where: { tenantId: state.tenant.id },
      orderBy: { version: 'desc' },
      select: { version: true, content: true },
    });
    const unchanged =
      latest !== null &&
      isDeepStrictEqual((latest.content as unknown as VersionContent).config, config);
    if (unchanged && reason === 'publish') return { version: latest.version, created: false };
    const version = (latest?.version ?? 0) + 1;
    await this.write(
      tx,
      state.tenant.id,
      version,
      { document: toPolicyDocument(state), config },
      {
        reason,
        rolledBackFrom: options.rolledBackFrom ?? null,
        createdById: options.actorId ?? null,
      },
    );
    if (options.enqueue !== false) await this.outbox.enqueue(tx, state.tenant.id, 'tenant');
    return { version, created: true };
  }

  /** A snapshot as is (the relay re-numbers one above a version Redis already holds). */
  async write(
    tx: Db,
    tenantId: string,
    version: number,
    content: VersionContent,
    meta: { reason: VersionReason; rolledBackFrom: number | null; createdById: string | null },
  ): Promise<void> {
    await tx.policyVersion.create({
      data: {
        id: newId('policyVersion'),
        tenantId,
        version,
        content: asJson(content),
        ...meta,
      },
    });
  }
}

function toBadInput(issues: readonly LocatedIssue[], fieldOf: CommitOptions['fieldOf']): AppError {
  const fields = issues.map((issue): FieldIssue => {
    const field = fieldOf?.(issue);
    return field === undefined
      ? { field: 'input', message: `${issue.path}: ${issue.message}` }
      : { field, message: issue.message };
  });
  return badUserInputOf(fields, { field: 'input', message: 'invalid' });
}
