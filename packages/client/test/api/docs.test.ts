import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = new URL('../../../../', import.meta.url).pathname;
const doc = readFileSync(join(root, 'docs/client.md'), 'utf8');

/** Names the examples use without defining them; each block gets those it does not define. */
const CONTEXT: Record<string, string> = {
  meter: 'import("@meter/client").MeterClient',
  admin: 'import("@meter/client").MeterClient',
  usage: 'import("@meter/client").RecordUsageParams',
  documentId: 'string',
  retryQueue: '{ push(usage: import("@meter/client").RecordUsageParams): Promise<void> }',
};
const IMPORTS = ['createMeterClient', 'MeterApiError', 'MeterNetworkError'];

function withContext(block: string): string {
  const defined = (name: string) =>
    new RegExp(`\\b(const|let)\\s+${name}\\b|\\bimport\\b[^;]*\\b${name}\\b`).test(block);
  const imports = IMPORTS.filter((n) => !defined(n));
  return [
    imports.length ? `import { ${imports.join(', ')} } from '@meter/client';` : '',
    ...Object.entries(CONTEXT)
      .filter(([name]) => !defined(name))
      .map(([name, type]) => `declare const ${name}: ${type};`),
    block,
    'export {};',
  ].join('\n');
}

describe('docs/client.md', () => {
  it('every TypeScript example type-checks against the client', () => {
    const blocks = [...doc.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(blocks.length).toBeGreaterThan(5);
    const dir = join(root, 'packages/client/test/api');
    const files = new Map(blocks.map((b, i) => [join(dir, `doc-example-${i}.ts`), withContext(b)]));

    const config = ts.readConfigFile(join(root, 'tsconfig.base.json'), ts.sys.readFile).config;
    const { options } = ts.parseJsonConfigFileContent(config, ts.sys, root);
    const host = ts.createCompilerHost({ ...options, noEmit: true });
    const { getSourceFile, fileExists, readFile } = host;
    host.fileExists = (f) => files.has(f) || fileExists(f);
    host.readFile = (f) => files.get(f) ?? readFile(f);
    host.getSourceFile = (f, lang, ...rest) =>
      files.has(f) ? ts.createSourceFile(f, files.get(f)!, lang) : getSourceFile(f, lang, ...rest);
    const program = ts.createProgram([...files.keys()], { ...options, noEmit: true }, host);
    const problems = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file && files.has(d.file.fileName))
      .map((d) => {
        const { line } = d.file!.getLineAndCharacterOfPosition(d.start ?? 0);
        const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
        return `${d.file!.fileName.slice(dirname(dir).length)}:${line + 1}: ${text}\n${files.get(d.file!.fileName)}`;
      });
    expect(problems).toEqual([]);
  }, 60_000);
});
