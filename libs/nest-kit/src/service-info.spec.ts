import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readServiceInfo } from './service-info';

let dir: string;

function manifest(content: object): string {
  const path = join(dir, 'package.json');
  writeFileSync(path, JSON.stringify(content));
  return path;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'service-info-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('readServiceInfo', () => {
  it('names the service after the package, without its npm scope', () => {
    expect(readServiceInfo(manifest({ name: '@sluice/data-plane', version: '1.4.0' }))).toEqual({
      service: 'data-plane',
      version: '1.4.0',
    });
    expect(readServiceInfo(manifest({ name: 'gateway', version: '2.0.0' }))).toEqual({
      service: 'gateway',
      version: '2.0.0',
    });
  });

  it('names the manifest and the missing field when it cannot say', () => {
    const path = manifest({ name: '@sluice/worker' });

    expect(() => readServiceInfo(path)).toThrow(new RegExp(`^${path}: .*\\n.*version`));
  });
});
