import { MeterError } from '../domain/errors.js';
import type { Logger } from '../ports/runtime.js';
import { errorResponse } from './error-mapping.js';
import { isMeterPath } from './handler.js';
import type { MeterHttpHandler, MeterResponse } from './types.js';

/**
 * The fetch-standard (Request -> Response) adapter, for runtimes and frameworks built on Web
 * APIs: Hono, Next.js route handlers, Bun, Deno, Cloudflare Workers. It lives in the core
 * because it needs no framework.
 */

export interface FetchRequestContext {
  /** The client's address, when the runtime knows it (Bun: `server.requestIP(req)?.address`). */
  remoteAddress?: string | undefined;
}

export interface FetchHandlerOptions {
  /** Answers paths outside the metering API; without it they resolve to `null`. */
  fallback?: (request: Request) => Response | Promise<Response>;
}

/** Answers `/api/*` and `/health`; any other path resolves to `null` so the host can go on. */
export type MeterFetchHandler = (request: Request, context?: FetchRequestContext) => Promise<Response | null>;

const fallbackLogger: Logger = { info() {}, warn() {}, error: (m, f) => console.error(m, f) };

export function createFetchHandler(
  handler: MeterHttpHandler,
): (request: Request, context?: FetchRequestContext) => Promise<Response | null>;
export function createFetchHandler(
  handler: MeterHttpHandler,
  options: FetchHandlerOptions & { fallback: (request: Request) => Response | Promise<Response> },
): (request: Request, context?: FetchRequestContext) => Promise<Response>;
export function createFetchHandler(handler: MeterHttpHandler, options: FetchHandlerOptions = {}) {
  return async (request: Request, context: FetchRequestContext = {}): Promise<Response | null> => {
    const url = new URL(request.url);
    if (!isMeterPath(url.pathname)) return options.fallback ? options.fallback(request) : null;
    let response: MeterResponse;
    try {
      const headers: Record<string, string> = {};
      request.headers.forEach((value, name) => {
        headers[name] = value;
      });
      response = await handler({
        method: request.method,
        path: url.pathname,
        query: url.searchParams,
        headers,
        body: await readFetchBody(request, handler.bodyLimit),
        remoteAddress: context.remoteAddress,
      });
    } catch (err) {
      response = errorResponse(err, handler.logger ?? fallbackLogger);
    }
    return new Response(response.body ?? null, { status: response.status, headers: response.headers });
  };
}

/** The exact request bytes, read with the limit enforced while streaming. */
async function readFetchBody(request: Request, limit: number): Promise<Uint8Array | null> {
  if (request.bodyUsed) {
    throw new MeterError(
      'internal_error',
      'The request body was already read, so its exact bytes are gone. Call the meter handler ' +
        'before anything reads the body (request.json(), a body-parsing middleware), or pass request.clone().',
    );
  }
  if (!request.body) return null;
  const tooLarge = new MeterError('payload_too_large', `The request body exceeds ${limit} bytes`);
  if (Number(request.headers.get('content-length') ?? 0) > limit) {
    await request.body.cancel().catch(() => {});
    throw tooLarge;
  }
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge;
    }
    chunks.push(value);
  }
  if (size === 0) return null;
  if (chunks.length === 1) return chunks[0]!;
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
