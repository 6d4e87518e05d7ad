import { handleNodeRequest, isMeterPath, type MeterHttpHandler } from '@meter/core';
import type { Middleware } from 'koa';

const MOUNT_HINT =
  'Mount meterKoa(handler) before any body parser: app.use(meterKoa(handler)); app.use(bodyParser());';

/**
 * Koa (3) middleware serving the metering API: `/api/*` and `/health` are answered, every
 * other path goes on to the host app. The response is set on `ctx` (not written to the socket),
 * so the host's outer middlewares (logging, CORS, compression) see and may decorate it.
 *
 * Mount it before any body parser. Behind one (`@koa/bodyparser`, `koa-bodyparser`), the text
 * the parser keeps in `ctx.request.rawBody` is used when it provably is the exact bytes sent
 * (UTF-8, not compressed, length equal to Content-Length); otherwise the request is refused
 * with a 500 saying where to mount.
 */
export function meterKoa(handler: MeterHttpHandler): Middleware {
  return async (ctx, next) => {
    const url = ctx.originalUrl;
    if (!isMeterPath(url.split('?', 1)[0]!)) return next();
    const response = await handleNodeRequest(handler, ctx.req, url, {
      retainedBody: (ctx.request as { rawBody?: unknown }).rawBody,
      mountHint: MOUNT_HINT,
    });
    ctx.status = response.status;
    ctx.set(response.headers);
    ctx.body = response.body ?? null;
  };
}
