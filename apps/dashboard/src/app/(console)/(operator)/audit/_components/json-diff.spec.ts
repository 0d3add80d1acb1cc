import { describe, expect, it } from 'vitest';
import { diffJson, jsonEqual, parseJson } from './json-diff';

describe('diffJson', () => {
  it('says which fields were added, removed and changed, in their order', () => {
    expect(
      diffJson(
        { name: 'Demo', status: 'active', plan: 'free' },
        { name: 'Demo Inc.', status: 'active', slug: 'demo' },
      ),
    ).toEqual([
      { path: 'name', kind: 'changed', before: 'Demo', after: 'Demo Inc.' },
      { path: 'plan', kind: 'removed', before: 'free' },
      { path: 'slug', kind: 'added', after: 'demo' },
    ]);
  });

  it('finds nothing between equal values, whatever the order of their keys', () => {
    expect(diffJson({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toEqual([]);
    expect(diffJson(null, null)).toEqual([]);
    expect(diffJson(undefined, undefined)).toEqual([]);
  });

  it('goes into nested objects, naming the path', () => {
    expect(
      diffJson({ burst: { capacity: 5, refill: 1 } }, { burst: { capacity: 3, refill: 1 } }),
    ).toEqual([{ path: 'burst.capacity', kind: 'changed', before: 5, after: 3 }]);
  });

  it('reports a field added or removed whole, not leaf by leaf', () => {
    expect(diffJson({}, { burst: { capacity: 3 } })).toEqual([
      { path: 'burst', kind: 'added', after: { capacity: 3 } },
    ]);
    expect(diffJson({ burst: { capacity: 3 } }, {})).toEqual([
      { path: 'burst', kind: 'removed', before: { capacity: 3 } },
    ]);
  });

  it('takes a missing side as an empty object: a creation adds every field, a deletion removes them', () => {
    expect(diffJson(null, { id: 't1', name: 'Demo' })).toEqual([
      { path: 'id', kind: 'added', after: 't1' },
      { path: 'name', kind: 'added', after: 'Demo' },
    ]);
    expect(diffJson({ id: 't1' }, undefined)).toEqual([
      { path: 'id', kind: 'removed', before: 't1' },
    ]);
  });

  it('compares arrays item by item, by index', () => {
    expect(diffJson({ scopes: ['read', 'write'] }, { scopes: ['read', 'admin', 'write'] })).toEqual(
      [
        { path: 'scopes[1]', kind: 'changed', before: 'write', after: 'admin' },
        { path: 'scopes[2]', kind: 'added', after: 'write' },
      ],
    );
  });

  it('matches items by a unique id or name, so an insertion is one addition', () => {
    const burst = { name: 'burst', capacity: 5 };
    const daily = { name: 'daily', limit: 1000 };
    expect(
      diffJson(
        { rules: [burst, daily] },
        { rules: [burst, { name: 'minute', limit: 60 }, { ...daily, limit: 2000 }] },
      ),
    ).toEqual([
      { path: 'rules[name=daily].limit', kind: 'changed', before: 1000, after: 2000 },
      { path: 'rules[name=minute]', kind: 'added', after: { name: 'minute', limit: 60 } },
    ]);
    // an id wins over a name; duplicates fall back to indexes
    expect(diffJson([{ id: 1, name: 'a' }], [{ id: 1, name: 'b' }])).toEqual([
      { path: '[id=1].name', kind: 'changed', before: 'a', after: 'b' },
    ]);
    expect(diffJson([{ name: 'a' }, { name: 'a' }], [{ name: 'a' }])).toEqual([
      { path: '[1]', kind: 'removed', before: { name: 'a' } },
    ]);
  });

  it('reports a change of type, and null, as a change', () => {
    expect(diffJson({ expiresAt: null }, { expiresAt: '2030-01-01T00:00:00.000Z' })).toEqual([
      { path: 'expiresAt', kind: 'changed', before: null, after: '2030-01-01T00:00:00.000Z' },
    ]);
    expect(diffJson({ a: [1] }, { a: { 0: 1 } })).toEqual([
      { path: 'a', kind: 'changed', before: [1], after: { 0: 1 } },
    ]);
    expect(diffJson('on', 'off')).toEqual([
      { path: '', kind: 'changed', before: 'on', after: 'off' },
    ]);
  });

  it('quotes keys that are not identifiers', () => {
    expect(diffJson({ 'premium_*': 1 }, { 'premium_*': 2 })).toEqual([
      { path: '["premium_*"]', kind: 'changed', before: 1, after: 2 },
    ]);
    expect(diffJson({ a: { 'x-y': 1 } }, { a: {} })).toEqual([
      { path: 'a["x-y"]', kind: 'removed', before: 1 },
    ]);
  });
});

describe('jsonEqual', () => {
  it('compares deeply', () => {
    expect(jsonEqual({ a: [1, { b: null }] }, { a: [1, { b: null }] })).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
  });
});

describe('parseJson', () => {
  it('reads an entry’s JSON, keeps other text, and leaves null out', () => {
    expect(parseJson('{"status":"active"}')).toEqual({ status: 'active' });
    expect(parseJson('not json')).toBe('not json');
    expect(parseJson(null)).toBeUndefined();
  });
});
