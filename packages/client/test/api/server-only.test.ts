import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const src = new URL('../../src', import.meta.url).pathname;
const files = (readdirSync(src, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'));

/** Identifiers that exist only in browsers; the client holds secrets and is for servers only. */
const BROWSER_GLOBALS = /\b(window|document|localStorage|sessionStorage|navigator|XMLHttpRequest)\b/;

describe('@meter/client is server-side only', () => {
  it('no source file reads a browser global', () => {
    expect(files.length).toBeGreaterThan(10);
    const offenders = files.filter((f) => {
      // Comments may say "browser"; code may not touch one.
      const code = readFileSync(join(src, f), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      return BROWSER_GLOBALS.test(code);
    });
    expect(offenders).toEqual([]);
  });
});
