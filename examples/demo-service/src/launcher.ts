import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';

/**
 * `npm start`: the demo API (examples/server) and this demo service side by side. The API
 * seeds the `word-counter` service with its webhook URL pointing at this service's /webhooks;
 * once the API listens, the demo service starts, logs in and reads that service's secret.
 * Ctrl-C (or SIGTERM) stops both; if either stops on its own, the other is stopped too.
 */

const root = new URL('../../..', import.meta.url).pathname;
const children: ChildProcess[] = [];
let stopping = false;

function start(entry: string, env: Record<string, string>, ready: RegExp): Promise<string> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', entry], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`${entry} stopped (${signal ?? `exit code ${code}`}); stopping the demo.`);
      stop(code === 0 ? 1 : (code ?? 1));
    }
  });
  let seen = '';
  let started = false;
  return new Promise((resolve) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      if (started) return;
      seen += chunk.toString();
      const match = ready.exec(seen);
      if (match) {
        started = true;
        resolve(match[1]!);
      }
    });
  });
}

function stop(exitCode: number): void {
  stopping = true;
  const running = children.filter((c) => c.exitCode === null && c.signalCode === null);
  const killer = setTimeout(() => {
    for (const c of running) c.kill('SIGKILL');
  }, 5000);
  killer.unref();
  void Promise.all(running.map((c) => once(c, 'exit'))).then(() => process.exit(exitCode));
  for (const c of running) c.kill('SIGTERM');
}

/** DEMO_SERVICE_PORT=0 asks for any free port; the API needs the number before the service starts. */
async function demoPort(): Promise<number> {
  const wanted = Number(process.env.DEMO_SERVICE_PORT ?? 3001);
  if (wanted !== 0) return wanted;
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

process.once('SIGINT', () => stop(0));
process.once('SIGTERM', () => stop(0));

const port = await demoPort();
const webhookUrl = `http://localhost:${port}/webhooks`;
const api = await start(
  'examples/server/src/main.ts',
  { DEMO_WEBHOOK_URL: webhookUrl },
  /listening on (\S+)/,
);
const demo = await start(
  'examples/demo-service/src/main.ts',
  { API_URL: api, DEMO_SERVICE_PORT: String(port) },
  /listening on (\S+)/,
);
console.log(
  `\nReady: the API on ${api}, the demo service on ${demo} (webhooks land at ${webhookUrl}).\n` +
    "Try the README's tour and demo walk-through. Ctrl-C stops both.",
);
