import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SpawnedServer {
  baseUrl: string;
  output: () => string;
  stop(): Promise<void>;
  /** SIGKILL: the process dies at once, with no chance to clean up. */
  kill(): Promise<void>;
}

const root = new URL('../..', import.meta.url).pathname;

/** Runs `npm start`'s server as its own process on a free port and waits until it listens. */
export async function spawnDemoServer(env: Record<string, string> = {}): Promise<SpawnedServer> {
  const dir = mkdtempSync(join(tmpdir(), 'meter-demo-'));
  const child: ChildProcess = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', 'examples/server/src/main.ts'],
    {
      cwd: root,
      env: { ...process.env, PORT: '0', DATABASE_URL: `sqlite:${join(dir, 'meter.db')}`, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`demo server did not start:\n${out}`));
    }, 30_000);
    const check = () => {
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout?.on('data', check);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`demo server exited with ${code}:\n${out}`));
    });
  });
  return {
    baseUrl,
    output: () => out,
    kill: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        // A server that does not stop within 5 s is killed, so a test never leaves one behind.
        const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}
