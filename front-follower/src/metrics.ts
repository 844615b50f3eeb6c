import { Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { Follower } from './follow';

export { startMetricsServer, type MetricsServer } from '@media-site/contracts/metrics-server';

/**
 * What a follower knows: the generation this host's nginx keys its API cache on, against the bffs'
 * `bff_catalog_generation` (monitoring/alerts.yml, FollowerBehind), and its Redis connection.
 */
export function createFollowerMetrics(follower: Follower): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'follower_' });
  new Gauge({
    name: 'follower_generation',
    help: "The catalog generation this host's front-door link points at (NaN while it has none)",
    registers: [registry],
    collect() {
      this.set(follower.link.current() ?? Number.NaN);
    },
  });
  if (follower.redisStatus() !== 'not configured')
    new Gauge({
      name: 'follower_redis_up',
      help: '1 while the Redis the bffs announce generations on is connected (else the database poll alone)',
      registers: [registry],
      collect() {
        this.set(follower.redisStatus() === 'ready' ? 1 : 0);
      },
    });
  return registry;
}
