import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ListeningHost } from './context.js';

/** A Node server started with `listen(0, '127.0.0.1')`, as the suite's `listen` returns it. */
export async function listenOn(server: Server): Promise<ListeningHost> {
  if (!server.listening) await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
