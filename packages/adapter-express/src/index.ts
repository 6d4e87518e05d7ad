import type { IncomingMessage, ServerResponse } from 'node:http';
import { isMeterPath, type MeterHandler, serveNode } from '@meter/core';

type NodeRequest = IncomingMessage & { originalUrl?: string };
type Next = (err?: unknown) => void;

/**
 * Express (4 or 5) middleware serving the metering API: `/api/*` and `/health` are answered,
 * every other path goes on to the host app. Mount it before any body parser, e.g.
 * `app.use(meterExpress(handler)); app.use(express.json());`, so request bytes stay exact.
 */
export function meterExpress(handler: MeterHandler & { bodyLimit: number }) {
  return (req: NodeRequest, res: ServerResponse, next: Next): void => {
    const url = req.originalUrl ?? req.url ?? '/';
    const path = url.split('?', 1)[0]!;
    if (!isMeterPath(path)) {
      next();
      return;
    }
    serveNode(handler, req, res, url).catch(next);
  };
}
