#!/usr/bin/env node
// The npm registry mirror on our build machines serves only the Linux builds of packages that
// ship per-platform binaries (esbuild, rollup, biome), so `npm install` leaves the other
// platforms' optional packages out of package-lock.json, and `npm ci` then refuses the lock
// file ("Missing: ... from lock file"). This adds an entry (version, os, cpu, libc) for each
// missing one; npm skips them on other platforms and, with a full registry, fills them in.
// Run it after any change to package-lock.json: `node scripts/complete-lockfile.mjs`.
import { readFileSync, writeFileSync } from 'node:fs';

const OS = [
  'aix',
  'android',
  'darwin',
  'freebsd',
  'linux',
  'netbsd',
  'openbsd',
  'openharmony',
  'sunos',
  'win32',
];
const CPU = ['arm64', 'arm', 'ia32', 'loong64', 'mips64el', 'ppc64', 'riscv64', 's390x', 'x64', 'wasm32'];

const path = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8'));
let added = 0;
for (const [key, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const target = `node_modules/${name}`;
    if (lock.packages[target] || lock.packages[`${key}/node_modules/${name}`]) continue;
    const tokens = name.split('/').pop().split('-');
    const os = tokens.find((t) => OS.includes(t));
    const cpu = tokens.find((t) => CPU.includes(t));
    if (!os && !cpu) continue;
    const libc = tokens.includes('musl') ? ['musl'] : tokens.includes('gnu') ? ['glibc'] : undefined;
    lock.packages[target] = {
      version: version.replace(/^[\^~]/, ''),
      ...(cpu ? { cpu: [cpu] } : {}),
      ...(entry.dev ? { dev: true } : {}),
      ...(libc ? { libc } : {}),
      optional: true,
      ...(os ? { os: [os] } : {}),
    };
    added++;
  }
}
const sorted = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
writeFileSync(path, `${JSON.stringify({ ...lock, packages: sorted }, null, 2)}\n`);
console.log(`package-lock.json: added ${added} off-platform optional entries`);
