import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './spawn-process.js';

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

const root = new URL('../..', import.meta.url).pathname;

/** Runs an entry point from sources and waits until its output has matched every pattern. */
async function spawnEntry(
  entry: string,
  env: Record<string, string>,
  ready: RegExp[],
): Promise<{ urls: string[]; server: SpawnedServer }> {
  const dir = mkdtempSync(join(tmpdir(), 'meter-demo-'));
  const child: ChildProcess = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', entry], {
    cwd: root,
    env: { ...process.env, PORT: '0', DATABASE_URL: `sqlite:${join(dir, 'meter.db')}`, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const urls = await new Promise<string[]>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${entry} did not start:\n${out}`));
    }, 30_000);
    const check = () => {
      const matches = ready.map((pattern) => pattern.exec(out)?.[1]);
      if (matches.every(Boolean)) {
        clearTimeout(timer);
        resolve(matches as string[]);
      }
    };
    child.stdout?.on('data', check);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${entry} exited with ${code}:\n${out}`));
    });
  });
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  return {
    urls,
    server: {
      baseUrl: urls[0]!,
      output: () => out,
      kill: () =>
        new Promise<void>((resolve) => {
          if (exited()) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGKILL');
        }),
      stop: () =>
        new Promise<void>((resolve) => {
          if (exited()) return resolve();
          // A server that does not stop within 8 s is killed, so a test never leaves one behind.
          const kill = setTimeout(() => child.kill('SIGKILL'), 8000);
          child.once('exit', () => {
            clearTimeout(kill);
            resolve();
          });
          child.kill('SIGTERM');
        }),
    },
  };
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
