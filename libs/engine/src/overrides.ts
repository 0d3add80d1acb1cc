import type { CompiledOverride, CompiledPolicy } from '@sluice/policy';

/** A policy's overrides indexed for matching: exact by identifier, prefixes by length. */
export interface OverrideIndex {
  exact: Map<string, CompiledOverride>;
  /** Prefix length → prefix → override, longest lengths first. */
  prefixes: [number, Map<string, CompiledOverride>][];
}

export function indexOverrides(policy: CompiledPolicy): OverrideIndex {
  const exact = new Map<string, CompiledOverride>();
  const byLength = new Map<number, Map<string, CompiledOverride>>();
  for (const override of policy.overrides) {
    if (override.match === 'exact') {
      exact.set(override.identifier, override);
      continue;
    }
    const length = override.identifier.length;
    const sameLength = byLength.get(length) ?? new Map<string, CompiledOverride>();
    sameLength.set(override.identifier, override);
    byLength.set(length, sameLength);
  }
  return { exact, prefixes: [...byLength].sort(([a], [b]) => b - a) };
}

/**
 * The override for `identifier` at `now`: an exact match first, else the longest matching
 * prefix; an expired one is skipped (the next candidate applies). One map lookup per distinct
 * prefix length, so many overrides cost no more than a few lengths.
 */
export function matchOverride(
  index: OverrideIndex,
  identifier: string,
  now: number,
): CompiledOverride | undefined {
  const exact = index.exact.get(identifier);
  if (exact && live(exact, now)) return exact;
  for (const [length, prefixes] of index.prefixes) {
    if (length > identifier.length) continue;
    const match = prefixes.get(identifier.slice(0, length));
    if (match && live(match, now)) return match;
  }
  return undefined;
}

const live = (override: CompiledOverride, now: number) =>
  override.expiresAt === undefined || override.expiresAt > now;
