import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadScripts, LUA_DIR, ScriptLoadError } from './script-loader';

describe('Lua scripts on disk', () => {
  const topLevel = readdirSync(LUA_DIR).filter((file) => file.endsWith('.lua'));

  it('are named <name>-<numberOfKeys|n>.lua', () => {
    expect(topLevel.sort()).toEqual([
      'check-rules-n.lua',
      'concurrency-1.lua',
      'fixed-window-1.lua',
      'gcra-1.lua',
      'leaky-bucket-1.lua',
      'release-lease-n.lua',
      'settle-reservation-n.lua',
      'sliding-window-counter-1.lua',
      'sliding-window-log-2.lua',
      'token-bucket-1.lua',
    ]);
  });

  for (const file of topLevel) {
    it(`${file} opens with a header naming KEYS, ARGV and what it returns`, () => {
      const source = readFileSync(path.join(LUA_DIR, file), 'utf8');
      const header = /^--\[\[\n([\s\S]*?)\n\]\]/.exec(source)?.[1];
      expect(header).toBeDefined();
      expect(header).toMatch(/^ {2}KEYS(\[1\])? /m);
      expect(header).toMatch(/^ {2}ARGV\[1\] /m);
      expect(header).toMatch(/^ {2}Returns /m);
      const keys = Number(/-(\d+)\.lua$/.exec(file)?.[1] ?? NaN);
      // a fixed key count is documented key by key
      for (let k = 1; k <= keys; k++) expect(header).toContain(`KEYS[${k}]`);
    });
  }

  it('resolve to sources with every include expanded and each module defined once', () => {
    for (const script of loadScripts()) {
      expect(script.lua).not.toMatch(/@include/);
      expect(script.lua.match(/^local sluice_algorithms = /gm)).toHaveLength(1);
    }
    const composite = loadScripts().find((script) => script.name === 'check_rules');
    expect(composite?.numberOfKeys).toBeUndefined();
    expect(composite?.lua.match(/^local function sluice_schedule\(/gm)).toHaveLength(1);
  });
});

describe('include resolution', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function tree(files: Record<string, string>): string {
    dir = mkdtempSync(path.join(tmpdir(), 'sluice-lua-'));
    mkdirSync(path.join(dir, 'includes'));
    for (const [name, source] of Object.entries(files)) writeFileSync(path.join(dir, name), source);
    return dir;
  }

  it('inlines nested modules depth-first, each once, in order of first use', () => {
    tree({
      'includes/base.lua': 'local base = 1',
      'includes/a.lua': '--- @include "includes/base"\nlocal a = base',
      'includes/b.lua': '--- @include "includes/base"\nlocal b = base',
      'demo-2.lua': '-- head\n--- @include "includes/a"\n--- @include "includes/b"\nreturn a + b',
    });
    expect(loadScripts(dir)).toEqual([
      {
        name: 'demo',
        numberOfKeys: 2,
        lua: '-- head\nlocal base = 1\nlocal a = base\n\nlocal b = base\nreturn a + b',
      },
    ]);
  });

  it.each([
    [
      'a circular include',
      {
        'includes/x.lua': '--- @include "includes/y"',
        'includes/y.lua': '--- @include "includes/x"',
        's-1.lua': '--- @include "includes/x"',
      },
      /circular include of "includes\/x"/,
    ],
    [
      'a missing include',
      { 's-1.lua': '--- @include "includes/nope"' },
      /include not found "includes\/nope"/,
    ],
    ['an include outside includes/', { 's-1.lua': '--- @include "../secret"' }, /bad include name/],
    [
      'a badly named script',
      { 'script.lua': 'return 1' },
      /expected <name>-<numberOfKeys\|n>\.lua/,
    ],
  ])('rejects %s', (_name, files, message) => {
    tree(files);
    expect(() => loadScripts(dir)).toThrow(ScriptLoadError);
    expect(() => loadScripts(dir)).toThrow(message);
  });
});
