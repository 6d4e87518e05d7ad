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

export interface RunningProcess {
  child: ChildProcess;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** SIGTERM, then SIGKILL if it has not exited within 8 s, so a test never leaves one behind. */
  stop(): Promise<void>;
  /** SIGKILL: it dies at once, with no chance to clean up. */
  kill(): Promise<void>;
}

/** Runs a TypeScript entry point from sources, as the examples' start scripts do. */
export function runTs(
  entry: string,
  options: { cwd?: string; env?: Record<string, string> } = {},
): RunningProcess {
  const child: ChildProcess = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', entry], {
    cwd: options.cwd ?? root,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const append = (d: Buffer) => {
    out += d.toString();
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  const signal = (sig: NodeJS.Signals, graceMs?: number) =>
    new Promise<void>((resolve) => {
      if (exited()) return resolve();
      const force = graceMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), graceMs);
      child.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      child.kill(sig);
    });
  return { child, output: () => out, stop: () => signal('SIGTERM', 8000), kill: () => signal('SIGKILL') };
}

/**
 * Waits until the output has matched every pattern (each pattern's first group is returned),
 * or rejects with the output when the process exits or 30 s pass.
 */
export function waitForOutput(proc: RunningProcess, entry: string, patterns: RegExp[]): Promise<string[]> {
  return new Promise<string[]>((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.child.kill('SIGKILL');
      reject(new Error(`${entry} did not start:\n${proc.output()}`));
    }, 30_000);
    const check = () => {
      const matches = patterns.map((pattern) => pattern.exec(proc.output())?.[1]);
      if (matches.every((m) => m !== undefined)) {
        clearTimeout(timer);
        resolve(matches as string[]);
      }
    };
    proc.child.stdout?.on('data', check);
    proc.child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${entry} exited with ${code}:\n${proc.output()}`));
    });
    check();
  });
}

/**
 * Runs a server entry point and waits until it serves: with `PORT=0`, for the line that says
 * where it listens; with a `port`, until `GET /health` answers there.
 */
export async function spawnTsServer(
  entry: string,
  options: { cwd?: string; env?: Record<string, string>; port?: number } = {},
): Promise<SpawnedProcess> {
  const proc = runTs(entry, {
    ...(options.cwd ? { cwd: options.cwd } : {}),
    env: { PORT: String(options.port ?? 0), DATABASE_URL: 'sqlite::memory:', ...options.env },
  });
  let baseUrl: string;
  if (options.port) {
    baseUrl = `http://127.0.0.1:${options.port}`;
    const deadline = Date.now() + 30_000;
    for (;;) {
      const ok = await fetch(`${baseUrl}/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (proc.child.exitCode !== null || Date.now() > deadline) {
        await proc.kill();
        throw new Error(`${entry} did not start:\n${proc.output()}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  } else {
    [baseUrl] = (await waitForOutput(proc, entry, [/listening on (http:\/\/\S+)/])) as [string];
  }
  return { baseUrl, output: proc.output, stop: proc.stop };
}
