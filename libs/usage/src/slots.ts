import calculateSlot from 'cluster-key-slot';
import type { Cluster } from 'ioredis';

export interface SlotGroups<T> {
  /** Owner → items, in their original order (a key's increments stay before its EXPIRE). */
  readonly groups: Map<string, T[]>;
  /** Items whose slot has no known owner (the cluster's slot map is not loaded yet). */
  readonly unrouted: T[];
}

/** Groups items by the node that owns their key's hash slot: one pipeline per group. */
export function groupBySlotOwner<T extends { readonly key: string }>(
  items: Iterable<T>,
  ownerOfSlot: (slot: number) => string | undefined,
): SlotGroups<T> {
  const groups = new Map<string, T[]>();
  const unrouted: T[] = [];
  let lastKey: string | undefined;
  let owner: string | undefined;
  for (const item of items) {
    // consecutive items mostly share a key (a hash's fields, then its EXPIRE)
    if (item.key !== lastKey) {
      lastKey = item.key;
      owner = ownerOfSlot(calculateSlot(item.key));
    }
    if (owner === undefined) {
      unrouted.push(item);
      continue;
    }
    const group = groups.get(owner);
    if (group) group.push(item);
    else groups.set(owner, [item]);
  }
  return { groups, unrouted };
}

/**
 * A slot's owner as ioredis groups them: the nodes serving it (master first). An ioredis Cluster
 * pipeline is sent to one node and refuses keys whose slots map to different node groups.
 */
export function clusterSlotOwner(cluster: Cluster): (slot: number) => string | undefined {
  return (slot) => {
    const nodes = cluster.slots[slot];
    return nodes && nodes.length > 0 ? nodes.join(';') : undefined;
  };
}
