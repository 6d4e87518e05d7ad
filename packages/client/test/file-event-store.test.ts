import { execFile } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createWebhookReceiver, fileEventStore, type MeterWebhookEvent } from '@meter/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NOW, SECRET, signedHeaders, usageCharged } from './support.js';

const root = new URL('../../../', import.meta.url).pathname;
const event = (n: number) =>
  JSON.parse(usageCharged({ id: `use_${n}`, usageEventId: `use_${n}` })) as MeterWebhookEvent;
const tempFile = () => join(mkdtempSync(join(tmpdir(), 'meter-events-')), 'nested', 'events.jsonl');

describe('fileEventStore', () => {
  const opened: { close(): Promise<void> }[] = [];
  const openStore = async (path: string) => {
    const store = await fileEventStore(path);
    opened.push(store);
    return store;
  };
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => s.close()));
    vi.restoreAllMocks();
  });

  it('writes one JSON line per accepted event, creating the folder', async () => {
    const path = tempFile();
    const store = await openStore(path);
    expect(await store.accept('whd_1', event(1))).toBe('accepted');
    expect(await store.accept('whd_1', event(1))).toBe('duplicate');
    expect(await store.accept('whd_2', event(2))).toBe('accepted');
    const lines = readFileSync(path, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toMatchObject([
      { deliveryId: 'whd_1', event: { id: 'use_1' }, acceptedAt: expect.any(String) },
      { deliveryId: 'whd_2', event: { id: 'use_2' } },
    ]);
  });

  it('survives a reopen: the events are there and their delivery ids stay duplicates', async () => {
    const path = tempFile();
    const first = await fileEventStore(path);
    await first.accept('whd_1', event(1));
    await first.accept('whd_2', event(2));
    await first.close();

    const again = await openStore(path);
    expect(again.has('whd_1')).toBe(true);
    expect(await again.accept('whd_1', event(1))).toBe('duplicate');
    expect(await again.accept('whd_3', event(3))).toBe('accepted');
    expect((await again.list()).map((e) => e.deliveryId)).toEqual(['whd_1', 'whd_2', 'whd_3']);
  });

  it('keeps what was accepted before the process was killed', async () => {
    const path = tempFile();
    const script = `
      import { fileEventStore } from '@meter/client';
      const store = await fileEventStore(${JSON.stringify(path)});
      await store.accept('whd_killed', { id: 'use_k', type: 'usage.charged' });
      process.kill(process.pid, 'SIGKILL');
    `;
    await expect(
      promisify(execFile)(
        process.execPath,
        ['--conditions=source', '--import', 'tsx', '--input-type=module', '-e', script],
        { cwd: root },
      ),
    ).rejects.toMatchObject({ signal: 'SIGKILL' });
    const store = await openStore(path);
    expect(await store.accept('whd_killed', event(1))).toBe('duplicate');
  });

  it('fsyncs each record before accept returns', async () => {
    const path = tempFile();
    const store = await openStore(path);
    const probe = await open(path, 'r');
    const prototype = Object.getPrototypeOf(probe) as { sync(): Promise<void> };
    await probe.close();
    const order: string[] = [];
    vi.spyOn(prototype, 'sync').mockImplementation(async () => {
      order.push('sync');
    });
    await store.accept('whd_1', event(1)).then(() => order.push('returned'));
    expect(order).toEqual(['sync', 'returned']);
  });

  it('cuts off a last line that was cut short by a crash, and appends cleanly after it', async () => {
    const path = tempFile();
    const first = await fileEventStore(path);
    await first.accept('whd_1', event(1));
    await first.close();
    appendFileSync(path, '{"deliveryId":"whd_torn","acceptedAt":"2026-');

    const store = await openStore(path);
    expect(store.has('whd_torn')).toBe(false);
    expect(await store.accept('whd_2', event(2))).toBe('accepted');
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    expect(lines.map((l) => JSON.parse(l).deliveryId)).toEqual(['whd_1', 'whd_2']);
  });

  it('refuses to open a file whose complete lines are not records', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'meter-events-')), 'events.jsonl');
    writeFileSync(path, '{"deliveryId":"whd_1","event":{}}\nhello\n');
    await expect(fileEventStore(path)).rejects.toThrow(/events\.jsonl:2 is not an accepted-event record/);
    // The failed open released the file.
    writeFileSync(path, '');
    await openStore(path);
  });

  it('refuses a second store on the same file in one process', async () => {
    const path = tempFile();
    await openStore(path);
    await expect(fileEventStore(path)).rejects.toThrow(/already open/);
  });

  it('accepts exactly one of concurrent calls with the same delivery id', async () => {
    const store = await openStore(tempFile());
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => store.accept('whd_same', event(1))));
    expect(outcomes.filter((o) => o === 'accepted')).toHaveLength(1);
    expect(await store.list()).toHaveLength(1);
  });

  it('takes back a failed write, so the delivery can be accepted on a retry', async () => {
    const path = tempFile();
    const store = await openStore(path);
    await store.accept('whd_1', event(1));
    const probe = await open(path, 'r');
    const prototype = Object.getPrototypeOf(probe) as { sync(): Promise<void> };
    await probe.close();
    vi.spyOn(prototype, 'sync').mockRejectedValueOnce(Object.assign(new Error('EIO'), { code: 'EIO' }));
    await expect(store.accept('whd_2', event(2))).rejects.toThrow('EIO');
    expect(store.has('whd_2')).toBe(false);
    expect(readFileSync(path, 'utf8').trimEnd().split('\n')).toHaveLength(1);
    expect(await store.accept('whd_2', event(2))).toBe('accepted');
    expect((await store.list()).map((e) => e.deliveryId)).toEqual(['whd_1', 'whd_2']);
  });

  it('backs a receiver across a restart: a redelivery after reopening is answered 200 once', async () => {
    const path = tempFile();
    const body = usageCharged();
    const onEvent = vi.fn();
    const receive = async () => {
      const store = await fileEventStore(path);
      const receiver = createWebhookReceiver({ secret: SECRET, store, onEvent, now: () => NOW });
      const answer = await receiver.handle({ rawBody: body, headers: signedHeaders(body) });
      await store.close();
      return answer;
    };
    expect((await receive()).body).toEqual({ received: true, duplicate: false });
    expect((await receive()).body).toEqual({ received: true, duplicate: true });
    expect(onEvent).toHaveBeenCalledOnce();
  });
});
