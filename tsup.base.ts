import { defineConfig } from 'tsup';

/** The one build every @meter package uses: ESM with .d.ts for Node 20; only the entries differ. */
export function packageBuild(entry: string[] = ['src/index.ts']) {
  return defineConfig({ entry, format: ['esm'], dts: true, clean: true, sourcemap: true, target: 'node20' });
}
