import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { channelMethods } from './fake-channels.js';
import { type FakeInvoiceData, FakeNodeError } from './fake-invoice.js';
import type { FakeNetwork } from './fake-network.js';
import { paymentMethods } from './fake-payments.js';

export interface FakeInvoiceRecord {
  data: FakeInvoiceData;
  address: string;
  /** As stored; Open reads as Expired past its expiry (see invoiceStatus). */
  status: 'Open' | 'Received' | 'Paid' | 'Cancelled';
  preimage: string;
}

export interface FakePayment {
  hash: string;
  amount: bigint;
  status: string;
  createdAt: number;
  updatedAt: number;
  fee: bigint;
  failedError: string | null;
}

export interface FakeNode {
  name: string;
  network: FakeNetwork;
  /** http://127.0.0.1:<port> */
  url: string;
  port: number;
  pubkey: string;
  /** Base58-looking peer id, the last part of the multiaddress (and the v0.7 identity). */
  peerId: string;
  address: string;
  running: boolean;
  connectedTo: Set<string>;
  invoices: Map<string, FakeInvoiceRecord>;
  payments: Map<string, FakePayment>;
  /** Every call received, in order (params object, or [] for none). */
  calls: { method: string; params: unknown }[];
  /** On-chain wallet of the node, in shannons; open_channel beyond it aborts the funding. */
  walletShannons: bigint;
  /** Fault: answer every call this many ms late. */
  delayMs: number;
  /** Fault: payments to this node's invoices stay Inflight/Received until set back to false. */
  holdPayments: boolean;
  /** Fault: `method` fails with `message` until clearFaults(). */
  failWith(method: string, message: string, code?: number): void;
  clearFaults(): void;
  /** Node down: closes the server so connections are refused. */
  stop(): Promise<void>;
  /** Back up on the same port. */
  start(): Promise<void>;
  /** Moves an invoice's creation time back so that it is past its expiry. */
  expireInvoice(paymentHash: string): void;
  callCount(method: string): number;
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

export async function createFakeNode(network: FakeNetwork, name: string): Promise<FakeNode> {
  const pubkey = `0${2 + (randomBytes(1)[0]! & 1)}${randomBytes(32).toString('hex')}`;
  const digest = createHash('sha256').update(pubkey).digest();
  const peerId = `Qm${[...digest].map((b) => BASE58[b % 58]).join('')}`;
  const faults = new Map<string, { message: string; code: number }>();
  let port = 0;

  const node: FakeNode = {
    name,
    network,
    url: '',
    port: 0,
    pubkey,
    peerId,
    address: '',
    running: false,
    connectedTo: new Set(),
    invoices: new Map(),
    payments: new Map(),
    calls: [],
    walletShannons: 100_000n * 100_000_000n,
    delayMs: 0,
    holdPayments: false,
    failWith(method, message, code = -32000) {
      faults.set(method, { message, code });
    },
    clearFaults() {
      faults.clear();
      node.delayMs = 0;
      node.holdPayments = false;
    },
    async stop() {
      if (!node.running) return;
      node.running = false;
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
    async start() {
      if (node.running) return;
      server.listen(port, '127.0.0.1');
      await once(server, 'listening');
      port = (server.address() as AddressInfo).port;
      node.port = port;
      node.url = `http://127.0.0.1:${port}`;
      node.address = `/ip4/127.0.0.1/tcp/${port + 1}/p2p/${peerId}`;
      node.running = true;
    },
    expireInvoice(paymentHash) {
      const record = node.invoices.get(paymentHash.toLowerCase());
      if (!record) throw new Error(`no invoice ${paymentHash} on ${name}`);
      const expiry = record.data.expiry ?? 1;
      record.data = { ...record.data, expiry, timestamp: Date.now() - expiry * 1000 - 1000 };
    },
    callCount: (method) => node.calls.filter((c) => c.method === method).length,
  };

  const methods: Record<string, (p: Record<string, unknown>) => unknown> = {
    ...paymentMethods(node),
    ...channelMethods(node),
  };

  async function answer(body: string): Promise<unknown> {
    let request: { id?: unknown; method?: unknown; params?: unknown };
    try {
      request = JSON.parse(body);
    } catch {
      return { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } };
    }
    const id = request.id ?? null;
    const method = String(request.method);
    node.calls.push({
      method,
      params: Array.isArray(request.params) ? (request.params[0] ?? []) : request.params,
    });
    if (node.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, node.delayMs));
    const handler = Object.hasOwn(methods, method) ? methods[method] : undefined;
    if (!handler) return { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } };
    if (!Array.isArray(request.params)) {
      return {
        jsonrpc: '2.0',
        id,
        error: { code: -32602, message: 'Invalid params', data: 'expected an array' },
      };
    }
    const params = (request.params[0] ?? {}) as Record<string, unknown>;
    try {
      const fault = faults.get(method);
      if (fault) throw new FakeNodeError(fault.message, fault.code);
      return { jsonrpc: '2.0', id, result: handler(params) ?? null };
    } catch (err) {
      if (!(err instanceof FakeNodeError)) throw err;
      const data = err.data ?? params;
      return { jsonrpc: '2.0', id, error: { code: err.code, message: err.message, data } };
    }
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      answer(Buffer.concat(chunks).toString('utf8')).then(
        (reply) => {
          if (res.destroyed) return;
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(reply));
        },
        (err: unknown) => {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(String(err));
        },
      );
    });
  });
  await node.start();
  return node;
}
