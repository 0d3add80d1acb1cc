/** A value as JSON.parse gives it. */
export type JsonValue =
  null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

type JsonObject = { readonly [key: string]: JsonValue };

export type ChangeKind = 'added' | 'removed' | 'changed';

/** One difference between two values: where (`rules[name=burst].capacity`), and what. */
export interface JsonChange {
  /** The field, from the root; empty when the whole value is the change. */
  path: string;
  kind: ChangeKind;
  /** Absent for an addition. */
  before?: JsonValue;
  /** Absent for a removal. */
  after?: JsonValue;
}

const isObject = (value: JsonValue | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What changed from `before` to `after`, field by field, in the order the fields come: a field
 * only one side has is added or removed (whole, not its every leaf), one both have with other
 * values is changed (objects and arrays are compared inside). Array items that all carry a unique
 * `id` (else `name`) on both sides are matched by it, so adding a rule in the middle is one
 * addition rather than a shift of every rule after it. A missing side (`null` or `undefined`, as
 * an audit entry's `before` of a creation) counts as an empty object.
 */
export function diffJson(
  before: JsonValue | undefined,
  after: JsonValue | undefined,
): JsonChange[] {
  const changes: JsonChange[] = [];
  const absent = (value: JsonValue | undefined) => value === undefined || value === null;
  compare(
    absent(before) && isObject(after) ? {} : (before ?? undefined),
    absent(after) && isObject(before) ? {} : (after ?? undefined),
    '',
    changes,
  );
  return changes;
}

function compare(
  before: JsonValue | undefined,
  after: JsonValue | undefined,
  path: string,
  changes: JsonChange[],
): void {
  if (before === undefined && after === undefined) return;
  if (before === undefined) {
    changes.push({ path, kind: 'added', after: after as JsonValue });
  } else if (after === undefined) {
    changes.push({ path, kind: 'removed', before });
  } else if (isObject(before) && isObject(after)) {
    const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
    for (const key of keys) compare(before[key], after[key], fieldPath(path, key), changes);
  } else if (Array.isArray(before) && Array.isArray(after)) {
    compareArrays(before as readonly JsonValue[], after as readonly JsonValue[], path, changes);
  } else if (!jsonEqual(before, after)) {
    changes.push({ path, kind: 'changed', before, after });
  }
}

function compareArrays(
  before: readonly JsonValue[],
  after: readonly JsonValue[],
  path: string,
  changes: JsonChange[],
): void {
  const key = ['id', 'name'].find((k) => keyedBy(before, k) && keyedBy(after, k));
  if (key === undefined) {
    const length = Math.max(before.length, after.length);
    for (let i = 0; i < length; i++) compare(before[i], after[i], `${path}[${i}]`, changes);
    return;
  }
  const byKey = (items: readonly JsonValue[]) =>
    new Map(items.map((item) => [String((item as JsonObject)[key]), item]));
  const old = byKey(before);
  const next = byKey(after);
  for (const id of new Set([...old.keys(), ...next.keys()])) {
    compare(old.get(id), next.get(id), `${path}[${key}=${id}]`, changes);
  }
}

/** Whether every item is an object with a distinct string or number under `key`. */
function keyedBy(items: readonly JsonValue[], key: string): boolean {
  const seen = new Set<string>();
  for (const item of items) {
    const value = isObject(item) ? item[key] : undefined;
    if (typeof value !== 'string' && typeof value !== 'number') return false;
    if (seen.has(String(value))) return false;
    seen.add(String(value));
  }
  return items.length > 0;
}

function fieldPath(parent: string, key: string): string {
  if (/^[A-Za-z_$][\w$]*$/.test(key)) return parent ? `${parent}.${key}` : key;
  return `${parent}[${JSON.stringify(key)}]`;
}

/** Deep equality of JSON values; the order of an object's keys does not matter. */
export function jsonEqual(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    const right = b as readonly JsonValue[];
    return (a as readonly JsonValue[]).every((item, i) => jsonEqual(item, right[i] as JsonValue));
  }
  if (!isObject(a) || !isObject(b)) return false;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every(
      (key) => Object.hasOwn(b, key) && jsonEqual(a[key] as JsonValue, b[key] as JsonValue),
    )
  );
}

/**
 * An audit entry's `before` or `after` (a JSON string, or null) as a value; text that is not JSON
 * is kept as a string, so it still shows.
 */
export function parseJson(text: string | null | undefined): JsonValue | undefined {
  if (text === null || text === undefined) return undefined;
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}
