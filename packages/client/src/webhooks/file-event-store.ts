import { type FileHandle, mkdir, open, readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { AcceptedEvent, AcceptedEventStore } from './event-store.js';

export interface FileEventStore extends AcceptedEventStore {
  readonly path: string;
  has(deliveryId: string): boolean;
  /** Accepted events, oldest first, read back from the file. */
  list(): Promise<AcceptedEvent[]>;
  /** Waits for accepts under way, then closes the file. */
  close(): Promise<void>;
}

/** Files held open by a store in this process: two stores on one file would accept twice. */
const openPaths = new Set<string>();

/**
 * A durable store in one append-only file of JSON lines, one accepted event per line. Each
 * accept is written and fsync'ed before it returns; opening reads back the delivery ids
 * already accepted. One process, one store per file: for several receiver processes use a
 * database table with a unique key on the delivery id.
 */
export async function fileEventStore(path: string): Promise<FileEventStore> {
  const fullPath = resolve(path);
  if (openPaths.has(fullPath)) {
    throw new Error(`fileEventStore: ${fullPath} is already open in this process; share that store`);
  }
  await mkdir(dirname(fullPath), { recursive: true });
  const handle = await open(fullPath, 'a+');
  openPaths.add(fullPath);
  let loaded: { ids: Set<string>; size: number };
  try {
    // A new file's directory entry must be durable too, or a crash can lose the whole file.
    await syncDirectory(dirname(fullPath));
    loaded = await load(handle, fullPath);
  } catch (err) {
    openPaths.delete(fullPath);
    await handle.close();
    throw err;
  }
  const { ids } = loaded;
  let size = loaded.size;
  let queue: Promise<unknown> = Promise.resolve();
  let closed = false;
  let broken: Error | null = null;

  /** Accepts run one at a time, so the duplicate check and the append cannot interleave. */
  function serialize<T>(task: () => Promise<T>): Promise<T> {
    const run = queue.then(task);
    queue = run.catch(() => {});
    return run;
  }

  return {
    path: fullPath,

    accept(deliveryId, event) {
      if (typeof deliveryId !== 'string' || deliveryId === '') {
        return Promise.reject(new TypeError('fileEventStore: deliveryId must be a non-empty string'));
      }
      return serialize(async () => {
        if (closed) throw new Error(`fileEventStore: ${fullPath} is closed`);
        if (broken) throw broken;
        if (ids.has(deliveryId)) return 'duplicate';
        const record: AcceptedEvent = { deliveryId, acceptedAt: new Date().toISOString(), event };
        const bytes = Buffer.from(`${JSON.stringify(record)}\n`, 'utf8');
        try {
          let written = 0;
          while (written < bytes.length) written += (await handle.write(bytes, written)).bytesWritten;
          await handle.sync();
        } catch (err) {
          // Take back a partial line, so the next record starts on a line of its own.
          await handle.truncate(size).catch((truncateErr: unknown) => {
            broken = new Error(
              `fileEventStore: ${fullPath} may end in a partial record; reopen the store to repair it`,
              { cause: truncateErr },
            );
          });
          throw err;
        }
        size += bytes.length;
        ids.add(deliveryId);
        return 'accepted';
      });
    },

    has: (deliveryId) => ids.has(deliveryId),

    async list() {
      await queue;
      return parseLines(await readFile(fullPath), fullPath).records;
    },

    async close() {
      if (closed) return;
      closed = true;
      await queue;
      await handle.close();
      openPaths.delete(fullPath);
    },
  };
}

/** Reads the accepted ids; a last line without its newline was never acknowledged, so it is cut off. */
async function load(handle: FileHandle, path: string): Promise<{ ids: Set<string>; size: number }> {
  const content = await readFile(path);
  const { records, complete } = parseLines(content, path);
  if (complete < content.length) {
    await handle.truncate(complete);
    await handle.sync();
  }
  return { ids: new Set(records.map((r) => r.deliveryId)), size: complete };
}

function parseLines(content: Buffer, path: string): { records: AcceptedEvent[]; complete: number } {
  const complete = content.lastIndexOf(0x0a) + 1;
  const lines = content.subarray(0, complete).toString('utf8').split('\n');
  const records: AcceptedEvent[] = [];
  lines.forEach((line, index) => {
    if (line === '') return;
    let record: Partial<AcceptedEvent> | null = null;
    try {
      record = JSON.parse(line) as Partial<AcceptedEvent>;
    } catch {}
    if (typeof record?.deliveryId !== 'string') {
      throw new Error(`fileEventStore: ${path}:${index + 1} is not an accepted-event record`);
    }
    records.push(record as AcceptedEvent);
  });
  return { records, complete };
}

async function syncDirectory(dir: string): Promise<void> {
  // Not every platform can open or fsync a directory (Windows); there it is left to the OS.
  const handle = await open(dir, 'r').catch(() => null);
  if (!handle) return;
  await handle.sync().catch(() => {});
  await handle.close();
}
