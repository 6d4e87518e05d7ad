import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRpcClient, fromHex, NodeRpcError, toHex } from '../src/index.js';

describe('node hex numbers', () => {
  it('encodes without leading zeros and decodes u128 exactly', () => {
    expect(toHex(0n)).toBe('0x0');
    expect(toHex(100_000_000n)).toBe('0x5f5e100');
    expect(toHex(2n ** 128n - 1n)).toBe(`0x${'f'.repeat(32)}`);
    expect(fromHex('0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF')).toBe(2n ** 128n - 1n);
    expect(fromHex('0x05')).toBe(5n);
    expect(() => toHex(-1n)).toThrow(RangeError);
    expect(() => fromHex('100')).toThrow(RangeError);
  });
});

describe('createRpcClient', () => {
  let server: Server;
  let url: string;
  let reply: (body: any) => { status?: number; text: string; delayMs?: number };
  const seen: any[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        const parsed = JSON.parse(body);
        seen.push({ parsed, contentType: req.headers['content-type'] });
        const r = reply(parsed);
        setTimeout(() => {
          res.writeHead(r.status ?? 200, { 'content-type': 'application/json' });
          res.end(r.text);
        }, r.delayMs ?? 0);
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  const client = (timeoutMs = 500) => createRpcClient({ url, timeoutMs, role: 'payee node' });
  const ok = (result: unknown) => ({ text: JSON.stringify({ jsonrpc: '2.0', id: 1, result }) });
  const thrown = (p: Promise<unknown>) =>
    p.then(
      () => expect.fail('should throw'),
      (e: unknown) => e as NodeRpcError,
    );

  it('posts JSON-RPC 2.0 with params as an array of one object and validates the result', async () => {
    reply = () => ok({ amount: '0x5f5e100' });
    const result = await client().call(
      'get_thing',
      { payment_hash: '0xab' },
      z.object({ amount: z.string() }),
    );
    expect(result).toEqual({ amount: '0x5f5e100' });
    const last = seen.at(-1);
    expect(last.contentType).toBe('application/json');
    expect(last.parsed).toMatchObject({
      jsonrpc: '2.0',
      method: 'get_thing',
      params: [{ payment_hash: '0xab' }],
    });
    expect(typeof last.parsed.id).toBe('number');
    await client().call('node_info', [], z.unknown());
    expect(seen.at(-1).parsed.params).toEqual([]);
  });

  it('turns the error envelope into a provider_error that keeps the node message', async () => {
    reply = () => ({
      text: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        error: {
          code: -32000,
          message: 'Send payment error: Failed to build route, PathFind error: no path found',
          data: {},
        },
      }),
    });
    const err = await thrown(client().call('send_payment', {}, z.unknown()));
    expect(err).toBeInstanceOf(NodeRpcError);
    expect(err.code).toBe('provider_error');
    expect(err.failure).toBe('node_error');
    expect(err.rpcCode).toBe(-32000);
    expect(err.nodeMessage).toContain('PathFind error: no path found');
    expect(err.message).toBe(
      'The payee node refused send_payment: Send payment error: Failed to build route, PathFind error: no path found',
    );
    expect(err.details).toMatchObject({
      method: 'send_payment',
      node: 'payee node',
      hint: { family: 'no_route' },
    });
  });

  it('keeps the serde text of an Invalid params error', async () => {
    reply = () => ({
      text: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        error: {
          code: -32602,
          message: 'Invalid params',
          data: 'uint hex string starts with redundant leading zeros: 0x05',
        },
      }),
    });
    const err = await thrown(client().call('new_invoice', {}, z.unknown()));
    expect(err.nodeMessage).toBe('Invalid params: uint hex string starts with redundant leading zeros: 0x05');
    expect(err.details).toMatchObject({ rpcCode: -32602, hint: { family: 'invalid_params' } });
  });

  it('reports answers it cannot read as provider_error', async () => {
    reply = () => ({ text: '<html>oops</html>' });
    expect(await thrown(client().call('x', {}, z.unknown()))).toMatchObject({
      code: 'provider_error',
      failure: 'bad_response',
    });
    reply = () => ok({ amount: 5 });
    const err = await thrown(client().call('x', {}, z.object({ amount: z.string() })));
    expect(err).toMatchObject({ code: 'provider_error', failure: 'bad_response' });
    expect(err.message).toContain('unexpected result (amount:');
    reply = () => ({ text: JSON.stringify({ jsonrpc: '2.0', id: 1 }) });
    expect(await thrown(client().call('x', {}, z.unknown()))).toMatchObject({ failure: 'bad_response' });
  });

  it('reports a gateway error in front of the node as unavailable', async () => {
    reply = () => ({ status: 503, text: 'Service Unavailable' });
    expect(await thrown(client().call('x', {}, z.unknown()))).toMatchObject({ code: 'provider_unavailable' });
  });

  it('times out a slow node with provider_timeout', async () => {
    reply = () => ({ ...ok(null), delayMs: 1500 });
    const started = Date.now();
    const err = await thrown(client(200).call('get_invoice', {}, z.unknown()));
    expect(Date.now() - started).toBeLessThan(1200);
    expect(err).toMatchObject({ code: 'provider_timeout', failure: 'timeout' });
    expect(err.message).toBe('The payee node did not answer get_invoice within 200 ms');
    expect(err.details).toMatchObject({ hint: { family: 'node_timeout' } });
  });

  it('reports a closed port as provider_unavailable', async () => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const err = await thrown(
      createRpcClient({ url: `http://127.0.0.1:${port}` }).call('node_info', [], z.unknown()),
    );
    expect(err).toMatchObject({ code: 'provider_unavailable', failure: 'unreachable' });
    expect(err.message).toMatch(/^The channel node is not reachable \(.*ECONNREFUSED.*\)/);
    expect(err.details).toMatchObject({ hint: { family: 'node_unreachable' } });
  });
});
