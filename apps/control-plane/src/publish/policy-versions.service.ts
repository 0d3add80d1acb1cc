import { Inject, Injectable } from '@nestjs/common';
import { newId, type Prisma } from '@sluice/db';
import {
  compileTenant,
  PolicyValidationError,
  type TenantConfigInput,
  type UnpublishedTenant,
} from '@sluice/policy';
import { isDeepStrictEqual } from 'node:util';
import { asJson } from '../database/json';
import { ENV, type Env } from '../env';
import { AppError, badUserInputOf, type FieldIssue } from '../graphql/app-error';
import { OutboxService } from '../outbox/outbox.service';
import { compileState, type LocatedIssue } from '../policy-config/compile-state';
import { counterResets, type CounterReset } from '../policy-config/counter-resets';
import { logCap, logCapIssues } from '../policy-config/log-cap';
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
  /** The rules whose counters the new version starts afresh (algorithm or window changed). */
  countersReset: CounterReset[];
}

interface LatestVersion {
  version: number;
  content: VersionContent;
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
    @Inject(ENV) private readonly env: Env,
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

  /**
   * What `commitState` checks, without writing: throws BAD_USER_INPUT when it does not compile;
   * else the rules whose counters a commit would start afresh.
   */
  async preview(
    tx: Db,
    state: TenantState,
    fieldOf?: CommitOptions['fieldOf'],
  ): Promise<CounterReset[]> {
    const { tenant, previous } = await this.check(tx, state, fieldOf);
    return previous ? counterResets(previous, tenant) : [];
  }

  async commitState(
    tx: Db,
    state: TenantState,
    options: CommitOptions = {},
  ): Promise<CommittedVersion> {
    const { tenant, latest, previous } = await this.check(tx, state, options.fieldOf);
    const reason = options.reason ?? 'publish';
    const config = asJson<TenantConfigInput>(toConfigInput(state));
    const unchanged = latest !== undefined && isDeepStrictEqual(latest.content.config, config);
    if (unchanged && reason === 'publish') {
      return { version: latest.version, created: false, countersReset: [] };
    }
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
    const countersReset = previous ? counterResets(previous, tenant) : [];
    return { version, created: true, countersReset };
  }

  /**
   * Compiles `state` (the policy lib's validation) and checks what the platform bounds beyond it
   * (the sliding-log cap, against the latest version): BAD_USER_INPUT on any issue.
   */
  private async check(tx: Db, state: TenantState, fieldOf: CommitOptions['fieldOf']) {
    const compiled = compileState(state);
    if ('issues' in compiled) throw toBadInput(compiled.issues, fieldOf);
    const latest = await this.latest(tx, state.tenant.id);
    const previous = latest && compileStored(latest.content.config);
    const plan = await tx.tenant.findUnique({
      where: { id: state.tenant.id },
      select: { plan: { select: { slidingLogMaxLimit: true } } },
    });
    const cap = logCap(this.env.CONTROL_PLANE_SLIDING_LOG_MAX_LIMIT, plan?.plan.slidingLogMaxLimit);
    const issues = logCapIssues(state, previous, cap);
    if (issues.length > 0) throw toBadInput(issues, fieldOf);
    return { tenant: compiled.tenant, latest, previous };
  }

  private async latest(tx: Db, tenantId: string): Promise<LatestVersion | undefined> {
    const row = await tx.policyVersion.findFirst({
      where: { tenantId },
      orderBy: { version: 'desc' },
      select: { version: true, content: true },
    });
    return row
      ? { version: row.version, content: row.content as unknown as VersionContent }
      : undefined;
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

/** A stored version's configuration compiled, or undefined if today's rules refuse it. */
function compileStored(config: TenantConfigInput): UnpublishedTenant | undefined {
  try {
    return compileTenant(config);
  } catch (error) {
    // a version stored under older validation rules: nothing to compare with
    if (error instanceof PolicyValidationError) return undefined;
    throw error;
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
