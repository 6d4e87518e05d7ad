import type { IncomingMessage, ServerResponse } from 'node:http';
import { MeterError } from '../domain/errors.js';
import { errorResponse } from './error-mapping.js';
import { isMeterPath } from './handler.js';
import type { MeterHandler, MeterRequest, MeterResponse } from './types.js';

/**
 * Node's request/response conversion, written once and reused by every Node adapter
 * (Express, Koa, Hapi, plain node:http).
 */

/** Reads the exact request bytes, refusing bodies over `limit` with payload_too_large. */
export function readRawBody(req: IncomingMessage, limit: number): Promise<Uint8Array | null> {
  // A body parser that ran first (express.json(), koa-bodyparser) has drained the stream.
  if (req.readableEnded || (req as { _body?: boolean })._body === true) {
    return Promise.reject(
      new MeterError(
        'internal_error',
        'The request body was already consumed by another middleware. Mount the meter router before any body parser (e.g. before express.json()).',
      ),
    );
  }
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) {
    req.resume();
    return Promise.reject(new MeterError('payload_too_large', `The request body exceeds ${limit} bytes`));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) {
        failed = true;
        reject(new MeterError('payload_too_large', `The request body exceeds ${limit} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!failed) resolve(size === 0 ? null : Buffer.concat(chunks, size));
    });
    req.on('error', (err) => {
      if (!failed) reject(err);
    });
  });
}

export function toMeterRequest(req: IncomingMessage, url: string, body: Uint8Array | null): MeterRequest {
  const parsed = new URL(url, 'http://localhost');
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return {
    method: req.method ?? 'GET',
    path: parsed.pathname,
    query: parsed.searchParams,
    headers,
    body,
    remoteAddress: req.socket?.remoteAddress,
  };
}

export function writeMeterResponse(res: ServerResponse, response: MeterResponse): void {
  res.statusCode = response.status;
  for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value);
  res.end(response.body);
}

/**
 * Serves a meter request on a Node request/response pair. `url` is the path as the meter
 * sees it (an adapter passes the original URL so mounting under a prefix still works).
 */
export async function serveNode(
  handler: MeterHandler & { bodyLimit: number },
  req: IncomingMessage,
  res: ServerResponse,
  url: string,
): Promise<void> {
  let response: MeterResponse;
  try {
    const body = await readRawBody(req, handler.bodyLimit);
    response = await handler(toMeterRequest(req, url, body));
  } catch (err) {
    response = errorResponse(err, { info() {}, warn() {}, error: (m, f) => console.error(m, f) });
  }
  writeMeterResponse(res, response);
}

/** A plain node:http listener: meter paths are served, anything else gets `fallback` (404 by default). */
export function createNodeListener(
  handler: MeterHandler & { bodyLimit: number },
  fallback?: (req: IncomingMessage, res: ServerResponse) => void,
) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const url = req.url ?? '/';
    if (isMeterPath(new URL(url, 'http://localhost').pathname) || !fallback) {
      void serveNode(handler, req, res, url);
    } else {
      fallback(req, res);
    }
  };
}
