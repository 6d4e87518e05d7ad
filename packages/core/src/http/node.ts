import type { IncomingMessage, ServerResponse } from 'node:http';
import { MeterError } from '../domain/errors.js';
import type { Logger } from '../ports/runtime.js';
import { errorResponse } from './error-mapping.js';
import { isMeterPath } from './handler.js';
import type { MeterHttpHandler, MeterRequest, MeterResponse } from './types.js';

/**
 * Node's request/response conversion, written once and reused by every Node adapter
 * (Express, Koa, Hapi, plain node:http).
 */

export interface NodeBodyOptions {
  /**
   * The body as a parser that ran before the meter kept it (Koa body parsers leave the text in
   * `ctx.request.rawBody`). Used only when it provably holds the exact bytes that were sent.
   */
  retainedBody?: unknown;
  /** Where to mount instead, for the message when another middleware consumed the body. */
  mountHint?: string;
}

const fallbackLogger: Logger = { info() {}, warn() {}, error: (m, f) => console.error(m, f) };

/** Reads the exact request bytes, refusing bodies over `limit` with payload_too_large. */
export function readRawBody(
  req: IncomingMessage,
  limit: number,
  options: NodeBodyOptions = {},
): Promise<Uint8Array | null> {
  // A body parser that ran first (express.json(), @koa/bodyparser) has drained the stream.
  if (req.readableDidRead) {
    const retained = exactRetainedBody(req, options.retainedBody);
    if (!retained) return Promise.reject(consumedError(options.mountHint));
    if (retained.byteLength > limit) return Promise.reject(tooLarge(limit));
    return Promise.resolve(retained.byteLength === 0 ? null : retained);
  }
  if (req.readableEnded || !hasBody(req)) return Promise.resolve(null);
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) {
    req.resume();
    return Promise.reject(tooLarge(limit));
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
        reject(tooLarge(limit));
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

/** Whether a body follows (RFC 9112 6.3); one that ended without a byte read had none either. */
const hasBody = (req: IncomingMessage) =>
  req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;

const tooLarge = (limit: number) =>
  new MeterError('payload_too_large', `The request body exceeds ${limit} bytes`);

function consumedError(mountHint: string | undefined): MeterError {
  return new MeterError(
    'internal_error',
    'The request body was already read by another middleware, so its exact bytes are gone. ' +
      (mountHint ?? 'Mount the meter before any body parser (e.g. before express.json()).'),
  );
}

/**
 * A parser's retained copy counts only when it is provably the bytes on the wire: nothing was
 * inflated, its length is the declared Content-Length, and text was UTF-8 with nothing
 * replaced (U+FFFD) or stripped (a BOM changes the length).
 */
function exactRetainedBody(req: IncomingMessage, retained: unknown): Uint8Array | null {
  const encoding = req.headers['content-encoding']?.trim().toLowerCase() ?? 'identity';
  const declared = req.headers['content-length'];
  if (encoding !== 'identity' || declared === undefined) return null;
  let bytes: Uint8Array;
  if (retained instanceof Uint8Array) {
    bytes = retained;
  } else if (typeof retained === 'string') {
    const charset = /;\s*charset="?([^";]+)/i.exec(req.headers['content-type'] ?? '')?.[1]?.toLowerCase();
    if ((charset && charset !== 'utf-8' && charset !== 'utf8') || retained.includes('\uFFFD')) return null;
    bytes = Buffer.from(retained, 'utf8');
  } else {
    return null;
  }
  return bytes.byteLength === Number(declared) ? bytes : null;
}

/** A path the URL parser would give back unchanged: no dot segments, backslashes or odd characters. */
const PLAIN_PATH = /^\/(?!\/)(?:[\w\-~:@!$&'()*+,;=%]|\/(?!\.))*$/;

/** Path and query of a request target; the URL parser only where it would change something (it costs ~1 µs). */
function splitUrl(url: string): { path: string; query: URLSearchParams } {
  const mark = url.indexOf('?');
  const path = mark === -1 ? url : url.slice(0, mark);
  if (!PLAIN_PATH.test(path) || /%2e/i.test(path)) {
    const parsed = new URL(url, 'http://localhost');
    return { path: parsed.pathname, query: parsed.searchParams };
  }
  return { path, query: new URLSearchParams(mark === -1 ? '' : url.slice(mark + 1)) };
}

export function toMeterRequest(req: IncomingMessage, url: string, body: Uint8Array | null): MeterRequest {
  const { path, query } = splitUrl(url);
  const headers: Record<string, string | undefined> = {};
  for (const name in req.headers) {
    const value = req.headers[name];
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return {
    method: req.method ?? 'GET',
    path,
    query,
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
 * Answers a meter request arriving on a Node request, for adapters that write the response
 * through their framework (Koa, Hapi). `url` is the path as the meter sees it (an adapter
 * passes the original URL so mounting under a prefix still works). Never rejects.
 */
export async function handleNodeRequest(
  handler: MeterHttpHandler,
  req: IncomingMessage,
  url: string,
  options?: NodeBodyOptions,
): Promise<MeterResponse> {
  try {
    // Most API calls are GETs without a body: no promise to wait for.
    const body =
      hasBody(req) || req.readableDidRead ? await readRawBody(req, handler.bodyLimit, options) : null;
    return await handler(toMeterRequest(req, url, body));
  } catch (err) {
    return errorResponse(err, handler.logger ?? fallbackLogger);
  }
}

/** Serves a meter request on a Node request/response pair. */
export async function serveNode(
  handler: MeterHttpHandler,
  req: IncomingMessage,
  res: ServerResponse,
  url: string,
  options?: NodeBodyOptions,
): Promise<void> {
  writeMeterResponse(res, await handleNodeRequest(handler, req, url, options));
}

/** A plain node:http listener: meter paths are served, anything else gets `fallback` (404 by default). */
export function createNodeListener(
  handler: MeterHttpHandler,
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
