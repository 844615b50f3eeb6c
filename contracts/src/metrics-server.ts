import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a prom-client Registry offers that this needs (contracts carries no prom-client). */
export interface MetricsRegistry {
  metrics(): Promise<string>;
  readonly contentType: string;
}

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/** GET /metrics on its own port, so the front door never exposes it. */
export async function startMetricsServer(registry: MetricsRegistry, port: number, host: string): Promise<MetricsServer> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'Content-Type': registry.contentType }).end(text),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
