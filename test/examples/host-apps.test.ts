import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../support/harness.js';
import { type SpawnedProcess, spawnTsServer } from '../support/spawn-process.js';

describe.each(['express-host', 'koa-host', 'hapi-host'])('examples/%s', (name) => {
  const dir = new URL(`../../examples/${name}/`, import.meta.url).pathname;
  let app: SpawnedProcess;
  beforeAll(async () => {
    // `npm start` in the example runs exactly this, from the example's folder.
    const start = JSON.parse(readFileSync(`${dir}package.json`, 'utf8')).scripts.start;
    expect(start).toBe('node --conditions=source --import tsx src/main.ts');
    app = await spawnTsServer('src/main.ts', { cwd: dir });
  }, 60_000);
  afterAll(async () => {
    await app?.stop();
  });

  it('mounts the metering API in 10 lines or fewer', () => {
    const source = readFileSync(`${dir}src/main.ts`, 'utf8');
    const block = /\/\/ metering: begin.*\n([\s\S]*?)\/\/ metering: end/.exec(source)?.[1];
    expect(block).toBeDefined();
    expect(block!.trimEnd().split('\n').length).toBeLessThanOrEqual(10);
  });

  it("serves the host's own routes, with its own body parser, next to /api", async () => {
    const api = apiClient(app.baseUrl);
    expect((await api.request('GET', '/')).body).toMatch(/Notes app/);
    const note = await api.post('/notes', { text: 'hello' });
    expect(note.status).toBe(201);
    expect(note.body).toEqual({ id: 1, text: 'hello' });
    expect((await api.get('/notes')).body).toEqual([{ id: 1, text: 'hello' }]);
    const config = await api.get('/api/channel/config');
    expect(config.status).toBe(200);
    expect(config.body).toMatchObject({ provider: 'simulated', currency: 'CKB' });
  });

  it('registers, logs in and reads /api/auth/me', async () => {
    const api = apiClient(app.baseUrl);
    const account = { email: `${name}@example.com`, password: 'correct horse battery', name };
    expect((await api.post('/api/auth/register', account)).status).toBe(201);
    const login = await api.post('/api/auth/login', { email: account.email, password: account.password });
    expect(login.status).toBe(200);
    const me = await api.get('/api/auth/me', login.body.token);
    expect(me.body.developer).toMatchObject({ email: account.email, name });
    expect((await api.get('/api/nope')).body.error.code).toBe('not_found');
  });
});
