import type { IncomingMessage, ServerResponse } from 'node:http';
import { isMeterPath, type MeterHttpHandler, serveNode } from '@meter/core';

type NodeRequest = IncomingMessage & { originalUrl?: string; rawBody?: unknown };
type Next = (err?: unknown) => void;

const MOUNT_HINT =
  'Mount meterExpress(handler) before express.json() and any other body parser: ' +
  'app.use(meterExpress(handler)); app.use(express.json());';

/**
 * Express (4 or 5) middleware serving the metering API: `/api/*` and `/health` are answered,
 * every other path goes on to the host app. Mount it before any body parser, e.g.
 * `app.use(meterExpress(handler)); app.use(express.json());`, so request bytes stay exact.
 * Behind a parser, a request whose body was consumed is refused with a 500 saying so, unless
 * the parser kept the exact bytes in `req.rawBody` (a `verify` hook).
 */
export function meterExpress(handler: MeterHttpHandler) {
  return (req: NodeRequest, res: ServerResponse, next: Next): void => {
    const url = req.originalUrl ?? req.url ?? '/';
    const path = url.split('?', 1)[0]!;
    if (!isMeterPath(path)) {
      next();
      return;
    }
    serveNode(handler, req, res, url, { retainedBody: req.rawBody, mountHint: MOUNT_HINT }).catch(next);
  };
}
