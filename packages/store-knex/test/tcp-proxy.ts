import { once } from 'node:events';
import { type AddressInfo, createServer, type Server, Socket } from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 in front of a database, to take the database away and bring it
 * back under a running store. `cut('refuse')` drops every connection and stops listening
 * (the server is down); `cut('hang')` drops every connection and then accepts new ones
 * without ever answering (a server that takes connections but never replies). `restore()`
 * forwards again on the same port.
 */
export interface TcpProxy {
  port: number;
  cut(mode: 'refuse' | 'hang'): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let mode: 'forward' | 'hang' = 'forward';

  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };

  const onConnection = (client: Socket) => {
    track(client);
    if (mode === 'hang') return;
    const upstream = new Socket();
    track(upstream);
    upstream.connect(target.port, target.host);
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  };

  let server: Server = createServer(onConnection);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  /** Destroys every connection and waits until their close events (and the clients' reactions) have run. */
  const dropAll = async () => {
    for (const socket of sockets) socket.destroy();
    while (sockets.size > 0) await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setTimeout(resolve, 10));
  };
  const stopListening = () =>
    server.listening ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve();

  return {
    port,
    async cut(how) {
      if (how === 'hang') {
        mode = 'hang';
        await dropAll();
        return;
      }
      const closed = stopListening();
      await dropAll();
      await closed;
    },
    async restore() {
      mode = 'forward';
      await dropAll();
      if (!server.listening) {
        server = createServer(onConnection);
        server.listen(port, '127.0.0.1');
        await once(server, 'listening');
      }
    },
    async close() {
      const closed = stopListening();
      await dropAll();
      await closed;
    },
  };
}
