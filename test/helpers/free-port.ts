// A free TCP port on 127.0.0.1 for a server the tests start as a separate process (Redis, Virtuoso).
import { createServer } from 'node:net';

/**
 * A port that was free a moment ago: the OS picks it for a listener on port 0, which is closed again at once.
 * Another process may take it before ours binds it, so callers retry their start on a new port when it fails.
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('freePort: no TCP address');
  return address.port;
}
