import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../support/harness.js';
import { freePort, type SpawnedProcess, spawnTsServer } from '../support/spawn-process.js';

const root = new URL('../../', import.meta.url).pathname;
const doc = readFileSync(`${root}docs/embedding.md`, 'utf8');
const env = { JWT_SECRET: 'embedding-doc-jwt-secret-0123456789abcdef', DATABASE_URL: 'sqlite::memory:' };

/** The registration round trip any mounted API must serve. */
async function registerAndLogIn(baseUrl: string, email: string) {
  const api = apiClient(baseUrl);
  expect(
    (await api.post('/api/auth/register', { email, password: 'long enough pw', name: 'D' })).status,
  ).toBe(201);
  const login = await api.post('/api/auth/login', { email, password: 'long enough pw' });
  expect((await api.get('/api/auth/me', login.body.token)).body.developer.email).toBe(email);
}

describe('docs/embedding.md', () => {
  it('shows every file of docs/snippets verbatim, and nothing else as a snippet', () => {
    const shown = [...doc.matchAll(/<!-- snippet: (\S+) -->\n```ts\n([\s\S]*?)```/g)];
    for (const [, file, code] of shown) expect(code, file).toBe(readFileSync(`${root}${file}`, 'utf8'));
    const files = readdirSync(`${root}docs/snippets`).map((f) => `docs/snippets/${f}`);
    expect(shown.map((m) => m[1]).sort()).toEqual(files.sort());
  });

  describe.each(['express', 'koa', 'hapi'])('the %s snippet', (name) => {
    let server: SpawnedProcess;
    beforeAll(async () => {
      server = await spawnTsServer(`docs/snippets/${name}.ts`, { port: await freePort(), env });
    }, 60_000);
    afterAll(async () => {
      await server?.stop();
    });

    it('serves the API next to the host route', async () => {
      const api = apiClient(server.baseUrl);
      expect((await api.get('/hello')).body).toEqual({ hello: 'world' });
      expect((await api.get('/api/channel/config')).body).toMatchObject({ provider: 'simulated' });
      expect((await api.get('/api/nope')).body.error.code).toBe('not_found');
      await registerAndLogIn(server.baseUrl, `${name}@example.com`);
    });
  });

  describe('the fetch snippets, called with Requests', () => {
    beforeAll(() => {
      Object.assign(process.env, env);
    });
    const url = (path: string) => `http://app.test${path}`;
    const register = (email: string) =>
      new Request(url('/api/auth/register'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: 'long enough pw', name: 'F' }),
      });

    it('Hono: metering paths answered, the rest falls through to the app', async () => {
      const app = (await import('../../docs/snippets/hono.js')).default;
      expect(await (await app.fetch(new Request(url('/hello')))).json()).toEqual({ hello: 'world' });
      const config = await app.fetch(new Request(url('/api/channel/config')));
      expect(await config.json()).toMatchObject({ provider: 'simulated' });
      expect((await app.fetch(register('hono@example.com'))).status).toBe(201);
    });

    it('Next.js route handler', async () => {
      const route = await import('../../docs/snippets/next-route.js');
      expect((await route.GET(new Request(url('/api/channel/config')))).status).toBe(200);
      expect((await route.POST(register('next@example.com'))).status).toBe(201);
      expect((await route.GET(new Request(url('/outside')))).status).toBe(404);
    });

    it('Bun server module, with the client address', async () => {
      const server = (await import('../../docs/snippets/bun-server.js')).default;
      const bun = { requestIP: () => ({ address: '203.0.113.7' }) };
      expect(await (await server.fetch(new Request(url('/')), bun)).json()).toEqual({ hello: 'world' });
      expect((await server.fetch(register('bun@example.com'), bun)).status).toBe(201);
    });
  });

  it('the core-direct snippet runs and prints what the doc says', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', 'docs/snippets/core-direct.ts'],
      { cwd: root },
    );
    const printed = /It prints:\n\n```text\n([\s\S]*?)```/.exec(doc)?.[1];
    const lines = printed!.trim().split('\n');
    const plain = lines.filter((l) => !l.startsWith('{'));
    for (const line of plain) expect(stdout).toContain(line);
    expect(stdout).toMatch(/status: 'charged',[\s\S]*amount: '0.6'[\s\S]*balanceRemaining: '0.4'/);
    expect(stdout).toMatch(/status: 'insufficient_balance',[\s\S]*required: '0.6',\s+available: '0.4'/);
  }, 30_000);
});
