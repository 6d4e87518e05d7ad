import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SpawnedProcess {
  baseUrl: string;
  output: () => string;
  stop(): Promise<void>;
}

const root = new URL('../..', import.meta.url).pathname;

/** A port that was free a moment ago. */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Runs a TypeScript entry point from sources (as the examples' start scripts do) and waits
 * until it serves: with `PORT=0`, for the line that says where it listens; with a `port`,
 * until `GET /health` answers there.
 */
export async function spawnTsServer(
  entry: string,
  options: { cwd?: string; env?: Record<string, string>; port?: number } = {},
): Promise<SpawnedProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', entry], {
    cwd: options.cwd ?? root,
    env: { ...process.env, PORT: String(options.port ?? 0), DATABASE_URL: 'sqlite::memory:', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const append = (d: Buffer) => {
    out += d.toString();
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${entry} did not start:\n${out}`));
    }, 30_000);
    const done = (url: string) => {
      clearTimeout(timer);
      resolve(url);
    };
    if (options.port) {
      const url = `http://127.0.0.1:${options.port}`;
      const poll = () =>
        fetch(`${url}/health`).then(
          (res) => (res.ok ? done(url) : setTimeout(poll, 100)),
          () => child.exitCode === null && setTimeout(poll, 100),
        );
      void poll();
    }
    child.stdout?.on('data', () => {
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m && !options.port) done(m[1]!);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${entry} exited with ${code}:\n${out}`));
    });
  });
  return {
    baseUrl,
    output: () => out,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}
