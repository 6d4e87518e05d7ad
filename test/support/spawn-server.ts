import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, runTs, waitForOutput } from './spawn-process.js';

export interface SpawnedServer {
  baseUrl: string;
  output: () => string;
  stop(): Promise<void>;
  /** SIGKILL: the process dies at once, with no chance to clean up. */
  kill(): Promise<void>;
}

export interface SpawnedStack extends SpawnedServer {
  /** The demo service's origin (the API's is `baseUrl`). */
  demoUrl: string;
}

/** Runs an entry point from sources on a fresh SQLite file and waits until its output has matched every pattern. */
async function spawnEntry(
  entry: string,
  env: Record<string, string>,
  ready: RegExp[],
): Promise<{ urls: string[]; server: SpawnedServer }> {
  const dir = mkdtempSync(join(tmpdir(), 'meter-demo-'));
  const proc = runTs(entry, { env: { PORT: '0', DATABASE_URL: `sqlite:${join(dir, 'meter.db')}`, ...env } });
  const urls = await waitForOutput(proc, entry, ready);
  return { urls, server: { baseUrl: urls[0]!, output: proc.output, stop: proc.stop, kill: proc.kill } };
}

/** Runs the demo API alone (`npm run start:api`) as its own process on a free port. */
export async function spawnDemoServer(env: Record<string, string> = {}): Promise<SpawnedServer> {
  return (await spawnEntry('examples/server/src/main.ts', env, [/API listening on (http:\/\/\S+)/])).server;
}

/**
 * Runs what `npm start` runs: the demo API and the demo service side by side, the service's
 * webhooks pointed at the demo service. Free ports, a fresh database and data directory.
 */
export async function spawnDemoStack(env: Record<string, string> = {}): Promise<SpawnedStack> {
  const data = mkdtempSync(join(tmpdir(), 'meter-demo-data-'));
  const { urls, server } = await spawnEntry(
    'examples/demo-service/src/launcher.ts',
    { DEMO_SERVICE_PORT: String(await freePort()), DEMO_DATA_DIR: data, ...env },
    [/API listening on (http:\/\/\S+)/, /Demo service listening on (http:\/\/\S+)/, /^Ready: (.*)$/m],
  );
  return { ...server, demoUrl: urls[1]! };
}
