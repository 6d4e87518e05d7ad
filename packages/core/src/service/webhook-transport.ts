import { type LookupAddress, lookup } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { isPrivateAddress } from '../domain/outbound-address.js';

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** When false, hosts that resolve to loopback, private or link-local addresses are refused. */
  allowPrivateNetworks: boolean;
}

export interface WebhookResponse {
  status: number;
  /** The start of the response body (at most a few KiB). */
  body: string;
}

/** Sends one webhook request. Rejects on network failure, timeout or a refused address. */
export type WebhookTransport = (request: WebhookRequest) => Promise<WebhookResponse>;

const MAX_RESPONSE_BYTES = 4096;

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A DNS lookup that refuses private addresses. It runs when the socket connects, so the
 * address checked is the address used: a name cannot resolve to a public address for the
 * check and a private one for the connection.
 */
function guardedLookup(hostname: string, options: { all?: boolean }, callback: LookupCallback): void {
  lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const refused = addresses.find((a) => isPrivateAddress(a.address));
    if (refused) {
      return callback(
        Object.assign(new Error(`refused: ${hostname} resolves to a private address (${refused.address})`), {
          code: 'EMETERPRIVATE',
        }),
        [],
      );
    }
    if (options.all) return callback(null, addresses);
    const first = addresses[0]!;
    callback(null, first.address, first.family);
  });
}

/** POSTs with node:http(s): no redirects are followed, the response is read up to a bound. */
export const nodeWebhookTransport: WebhookTransport = (req) =>
  new Promise((resolve, reject) => {
    const url = new URL(req.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return reject(new Error(`refused: ${url.protocol} URLs are not delivered to`));
    }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!req.allowPrivateNetworks && isIP(host) && isPrivateAddress(host)) {
      return reject(new Error(`refused: ${host} is a private address`));
    }
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const outgoing = send(
      url,
      {
        method: 'POST',
        headers: { ...req.headers, 'content-length': String(Buffer.byteLength(req.body)) },
        signal: AbortSignal.timeout(req.timeoutMs),
        ...(req.allowPrivateNetworks ? {} : { lookup: guardedLookup as never }),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < MAX_RESPONSE_BYTES) chunks.push(chunk);
          size += chunk.length;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).subarray(0, MAX_RESPONSE_BYTES).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    outgoing.on('error', (err: Error) =>
      reject(err.name === 'AbortError' ? new Error(`timed out after ${req.timeoutMs} ms`) : err),
    );
    outgoing.end(req.body);
  });
