import { describe, expect, it } from 'vitest';
import { filterEndpoints } from './use-endpoint-filters';

describe('filterEndpoints', () => {
  const endpoints = [
    { name: 'billing', url: 'https://pay.example.com/hooks', enabled: true },
    { name: 'audit', url: 'https://logs.example.com/in', enabled: false },
  ];

  it('finds by name or URL, in any case, and by state', () => {
    const names = (search: string, state: 'enabled' | 'disabled' | null = null) =>
      filterEndpoints(endpoints, { search, state }).map((e) => e.name);
    expect(names('')).toEqual(['billing', 'audit']);
    expect(names(' LOGS ')).toEqual(['audit']);
    expect(names('bill')).toEqual(['billing']);
    expect(names('', 'disabled')).toEqual(['audit']);
    expect(names('bill', 'disabled')).toEqual([]);
  });
});
