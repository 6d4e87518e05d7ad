import type { IncomingMessage, ServerResponse } from 'node:http';

export type FetchApp = (request: Request, context: { remoteAddress?: string }) => Promise<Response>;

/**
 * Serves a fetch-standard app (Request -> Response) on node:http, as Bun or Deno would: the
 * request body is a stream of the socket's bytes, untouched; cancelling it drains the rest.
 */
export function fetchBridge(app: FetchApp) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const body = hasBody
      ? new ReadableStream<Uint8Array>({
          start(controller) {
            req.on('data', (chunk: Buffer) => controller.enqueue(new Uint8Array(chunk)));
            req.on('end', () => controller.close());
            req.on('error', (err) => controller.error(err));
          },
          cancel() {
            for (const event of ['data', 'end', 'error']) req.removeAllListeners(event);
            req.resume();
          },
        })
      : null;
    const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
      method: req.method ?? 'GET',
      headers,
      body,
      duplex: 'half',
    } as RequestInit);
    app(request, { remoteAddress: req.socket.remoteAddress })
      .then(async (response) => {
        res.statusCode = response.status;
        response.headers.forEach((value, name) => {
          res.setHeader(name, value);
        });
        res.end(Buffer.from(await response.arrayBuffer()));
      })
      .catch((err: unknown) => {
        res.statusCode = 500;
        res.end(String(err));
      });
  };
}
