import calculateSlot from 'cluster-key-slot';
import { describe, expect, it } from 'vitest';
import { decisionLogKey, keyLastUsedKey, topDeniedKey, usageSecondKey } from './keys';
import { groupBySlotOwner } from './slots';

/** A three-master layout like `redis-cli --cluster create` makes. */
function ownerOf(slot: number): string | undefined {
  if (slot < 0 || slot > 16383) return undefined;
  return slot <= 5460 ? 'node-a' : slot <= 10922 ? 'node-b' : 'node-c';
}

const tenantKeys = (tenantId: string) => [
  usageSecondKey('sluice:', tenantId, 'api', 1_700_000_000),
  usageSecondKey('sluice:', tenantId, 'login', 1_700_000_001),
  topDeniedKey('sluice:', tenantId, 'api', 28_333_333),
  decisionLogKey('sluice:', tenantId, 'api'),
  keyLastUsedKey('sluice:', tenantId),
];

describe('groupBySlotOwner', () => {
  it('puts every key of one tenant on one slot, the slot of its id', () => {
    for (const tenantId of ['tnt_a', 'tnt_b', 'T-42', 'x']) {
      const slots = new Set(tenantKeys(tenantId).map((key) => calculateSlot(key)));
      expect(slots).toEqual(new Set([calculateSlot(tenantId)]));
    }
  });

  it('groups keys by the node owning their slot, keeping their order', () => {
    const items = Array.from({ length: 60 }, (_, i) => `tnt_${i}`).flatMap((tenantId) =>
      tenantKeys(tenantId).map((key, index) => ({ key, index, tenantId })),
    );
    const { groups, unrouted } = groupBySlotOwner(items, ownerOf);

    expect(unrouted).toEqual([]);
    expect([...groups.keys()].sort()).toEqual(['node-a', 'node-b', 'node-c']);
    expect([...groups.values()].flat()).toHaveLength(items.length);
    for (const [node, group] of groups) {
      for (const item of group) expect(ownerOf(calculateSlot(item.key))).toBe(node);
      // the relative order of the input survives within a group
      expect(group).toEqual(items.filter((item) => group.includes(item)));
    }
    // a tenant never spans groups
    const nodesByTenant = new Map<string, Set<string>>();
    for (const [node, group] of groups) {
      for (const { tenantId } of group) {
        nodesByTenant.set(tenantId, (nodesByTenant.get(tenantId) ?? new Set()).add(node));
      }
    }
    for (const nodes of nodesByTenant.values()) expect(nodes.size).toBe(1);
  });

  it('leaves keys whose slot has no known owner unrouted', () => {
    const known = calculateSlot('tnt_a');
    const items = [...tenantKeys('tnt_a'), ...tenantKeys('tnt_b')].map((key) => ({ key }));
    const { groups, unrouted } = groupBySlotOwner(items, (slot) =>
      slot === known ? 'only' : undefined,
    );
    expect(groups.get('only')).toEqual(tenantKeys('tnt_a').map((key) => ({ key })));
    expect(unrouted).toEqual(tenantKeys('tnt_b').map((key) => ({ key })));
  });

  it('matches the slots Redis computes', () => {
    // CLUSTER KEYSLOT values from the Redis documentation
    expect(calculateSlot('foo')).toBe(12182);
    expect(calculateSlot('{user1000}.following')).toBe(calculateSlot('user1000'));
  });
});
