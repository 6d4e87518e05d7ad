import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { connect, createServer, type Socket } from 'node:net';

/**
 * What the proxy does with the answer on a connection: pass it on, drop the connection once
 * the server has answered (the caller never hears it), or hold it back (the caller times out).
 */
export type ProxyMode = 'forward' | 'drop' | 'hold';

/** A TCP proxy in front of a real server, deciding per connection (numbered from 1). */
export async function startProxy(target: string, mode: (connection: number) => ProxyMode) {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => {
        sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    const decision = mode(++connections);
    if (decision === 'forward') upstream.pipe(client);
    else if (decision === 'drop') upstream.once('data', () => client.destroy());
    // 'hold': the answer is read from the server and never passed on.
    else upstream.resume();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => connections,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
