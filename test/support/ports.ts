import { createServer } from 'node:net';

/**
 * A local TCP port nothing listens on (taken from the OS, then released): free for a
 * process to listen on, or a refused connection for a client.
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A port whose connections are refused. */
export const closedPort = freePort;
