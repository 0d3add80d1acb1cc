import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** `lua/` beside `src/` and `dist/`, so the same path works under vitest and after tsc. */
export const LUA_DIR = path.join(__dirname, '..', 'lua');

/** `--- @include "includes/<module>"` on a line of its own. */
const INCLUDE = /^---[ \t]*@include[ \t]+"([^"]+)"[ \t]*$/gm;
const INCLUDE_NAME = /^includes\/[a-z0-9-]+$/;
/** `<name>-<numberOfKeys>.lua`; `n` means the caller gives numberOfKeys with every call. */
const SCRIPT_FILE = /^([a-z0-9-]+)-(\d+|n)\.lua$/;

export interface LoadedScript {
  /** File name without the key count, hyphens as underscores: `token-bucket-1.lua` → `token_bucket`. */
  name: string;
  /** Undefined for variable-key scripts (`-n.lua`). */
  numberOfKeys: number | undefined;
  /** Source with every include resolved, each module once. */
  lua: string;
}

export class ScriptLoadError extends Error {
  override readonly name = 'ScriptLoadError';
}

/** Every top-level script of `dir`, includes resolved (like BullMQ's script loader). */
export function loadScripts(dir = LUA_DIR): LoadedScript[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.lua'))
    .sort()
    .map((file) => {
      const match = SCRIPT_FILE.exec(file);
      if (!match) throw new ScriptLoadError(`${file}: expected <name>-<numberOfKeys|n>.lua`);
      const [, name = '', keys = ''] = match;
      return {
        name: name.replace(/-/g, '_'),
        numberOfKeys: keys === 'n' ? undefined : Number(keys),
        lua: resolveIncludes(readFileSync(path.join(dir, file), 'utf8'), dir, new Set(), [file]),
      };
    });
}

/**
 * Replaces each include line by the module's source (itself resolved). A module already
 * emitted earlier in this script becomes an empty line; a module including itself, directly or
 * through others, is an error because its definitions would be used before they exist.
 */
export function resolveIncludes(
  source: string,
  dir: string,
  emitted: Set<string>,
  stack: string[],
): string {
  return source.replace(INCLUDE, (_line, include: string) => {
    if (!INCLUDE_NAME.test(include)) {
      throw new ScriptLoadError(`${stack.join(' > ')}: bad include name "${include}"`);
    }
    if (stack.includes(include)) {
      throw new ScriptLoadError(`${stack.join(' > ')}: circular include of "${include}"`);
    }
    if (emitted.has(include)) return '';
    emitted.add(include);
    let module: string;
    try {
      module = readFileSync(path.join(dir, `${include}.lua`), 'utf8');
    } catch {
      throw new ScriptLoadError(`${stack.join(' > ')}: include not found "${include}"`);
    }
    return resolveIncludes(module, dir, emitted, [...stack, include]).trimEnd();
  });
}
