import { describe, expect, it } from 'vitest';
import { documentFormatOf, exportFileName } from './export-file';

describe('exportFileName', () => {
  it('names the tenant, the version and the format', () => {
    expect(exportFileName('demo', 'YAML', null)).toBe('demo-policies.yaml');
    expect(exportFileName('demo', 'JSON', 7)).toBe('demo-policies-v7.json');
  });
});

describe('documentFormatOf', () => {
  it('reads JSON by the file’s name or the text, YAML otherwise', () => {
    expect(documentFormatOf('format: x', 'policies.JSON')).toBe('JSON');
    expect(documentFormatOf('  {"format": "x"}')).toBe('JSON');
    expect(documentFormatOf('format: x\n', 'policies.yaml')).toBe('YAML');
  });
});
