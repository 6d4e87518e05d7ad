import type { Plugin, ServerRoute } from '@hapi/hapi';
import { handleNodeRequest, type MeterHttpHandler } from '@meter/core';

/**
 * A Hapi (21) plugin serving the metering API: `server.register(meterHapi(handler))` adds a
 * route for `/api/{path*}` and one for `/health`, any method; the host's own routes stay its
 * own (Hapi prefers the more specific path, and refuses a conflicting one at registration).
 *
 * Hapi parses payloads per route, so a host's parsing never touches these routes: they take
 * the payload as an unparsed stream, and the core reads the exact bytes with its own limit.
 */
export function meterHapi(handler: MeterHttpHandler): Plugin<void> {
  const options: ServerRoute['options'] = {
    // Hapi's own Content-Length check would answer 413 in its own shape; the core enforces the limit.
    payload: { output: 'stream', parse: false, maxBytes: Number.MAX_SAFE_INTEGER },
    async handler(request, h) {
      // request.path, not request.url: Hapi parses the URL object lazily, at ~1 µs a request.
      const raw = request.raw.req.url ?? '';
      const query = raw.indexOf('?');
      const url = query === -1 ? request.path : request.path + raw.slice(query);
      const response = await handleNodeRequest(handler, request.raw.req, url);
      const reply = h.response(response.body).code(response.status);
      for (const [name, value] of Object.entries(response.headers)) reply.header(name, value);
      return reply;
    },
  };
  return {
    name: '@meter/adapter-hapi',
    register(server) {
      server.route([
        { method: '*', path: '/api/{path*}', options },
        { method: '*', path: '/health', options },
      ]);
    },
  };
}
