import { startSimulator } from './simulator';

// The card-provider simulator as a process (npm start, the test stack). Local use only.
const env = process.env;
const sim = await startSimulator({
  port: Number(env.SIMULATOR_PORT ?? 3003),
  host: env.SIMULATOR_HOST ?? '127.0.0.1',
  stallMs: env.SIMULATOR_STALL_MS ? Number(env.SIMULATOR_STALL_MS) : undefined,
  tokenLifetimeSeconds: env.SIMULATOR_TOKEN_LIFETIME_S ? Number(env.SIMULATOR_TOKEN_LIFETIME_S) : undefined,
  webhookUrl: env.SIMULATOR_WEBHOOK_URL || undefined,
  autoWebhooks: env.SIMULATOR_AUTO_WEBHOOKS !== '0',
});
console.log(JSON.stringify({ level: 30, service: 'simulator', url: sim.url, msg: 'card provider simulator listening' }));
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    void sim.close().then(() => process.exit(0));
  });
}
