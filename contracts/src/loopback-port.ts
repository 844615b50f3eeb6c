import { createServer } from 'node:net';

/**
 * Below Linux's ephemeral range (32768-60999): a port picked here is not taken meanwhile as the
 * source port of an outgoing connection. Fixed test ports sit in 32000-32767, above this range.
 */
const PORT_LOW = 20_000;
const PORT_HIGH = 32_000;

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A random loopback port in 20000-31999 nobody listens on now. Ports in `handedOut` are skipped and
 * every port tried is added to it, so a caller that keeps the set never gets one twice.
 */
export async function freeLoopbackPort(handedOut: Set<number> = new Set()): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = PORT_LOW + Math.floor(Math.random() * (PORT_HIGH - PORT_LOW));
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port found in ${PORT_LOW}-${PORT_HIGH}`);
}
