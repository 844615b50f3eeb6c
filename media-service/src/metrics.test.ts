import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeLabel } from './metrics';
import { startFixture } from './test/helpers';
import type { Fixture } from './test/helpers';

describe('routeLabel', () => {
  it.each([
    ['/members/photosthumbs/set-1/large.jpg', true, '/members/photosthumbs/*?w'],
    ['/members/video/clip-1/clip-1001.mp4', false, '/members/video/*'],
    // Every family has its own label (renditions and previews were counted under `other`).
    ['/members/videorenditions/clip-1/720p.mp4', false, '/members/videorenditions/*'],
    ['/members/../etc/passwd', false, 'other'],
    ['/members/unknown/x', false, 'other'],
    ['/healthz', false, '/healthz'],
    ['/favicon.ico', false, 'other'],
  ])('%s (variant %s) -> %s', (path, variant, label) => {
    expect(routeLabel(path, variant)).toBe(label);
  });
});

describe('/metrics', () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await startFixture({ METRICS_PORT: '0' });
  });
  afterAll(async () => {
    await fx?.stop();
  });

  it('answers on its own port with request durations by route and the variant pool', async () => {
    expect(fx.media.metricsPort).toBeGreaterThan(0);
    await fetch(`${fx.media.url}/members/photosthumbs/set-1/large.jpg?w=160`).then((r) => r.arrayBuffer());
    await fetch(`${fx.media.url}/members/video/clip-1/clip-1001.mp4`).then((r) => r.arrayBuffer());
    const res = await fetch(`http://127.0.0.1:${fx.media.metricsPort}/metrics`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(/media_http_request_duration_seconds_count\{method="GET",route="\/members\/photosthumbs\/\*\?w",status="200"\} 1/);
    expect(text).toMatch(/media_http_request_duration_seconds_count\{method="GET",route="\/members\/video\/\*",status="401"\} 1/);
    expect(text).toMatch(/^media_variant_queue_depth 0$/m);
    expect(text).toMatch(/^media_variant_renders_total 1$/m);
    expect(text).toContain('media_process_cpu_seconds_total');
    expect((await fetch(`http://127.0.0.1:${fx.media.metricsPort}/other`)).status).toBe(404);
  });

  it('reports its readiness and the free space of the media and variant-cache disks', async () => {
    const text = await (await fetch(`http://127.0.0.1:${fx.media.metricsPort}/metrics`)).text();
    expect(text).toMatch(/^media_ready 1$/m);
    for (const volume of ['media', 'variants']) {
      const free = Number(new RegExp(`^media_volume_free_bytes\\{volume="${volume}"\\} (\\S+)$`, 'm').exec(text)?.[1]);
      const size = Number(new RegExp(`^media_volume_size_bytes\\{volume="${volume}"\\} (\\S+)$`, 'm').exec(text)?.[1]);
      expect(free).toBeGreaterThan(0);
      expect(size).toBeGreaterThanOrEqual(free);
    }
    // Static lists (no bff to poll) have no age; polled ones are covered where a bff serves them.
    expect(text).not.toMatch(/^media_list_age_seconds\{/m);
  });

  it('is off unless METRICS_PORT is set', async () => {
    const plain = await startFixture();
    try {
      expect(plain.media.metricsPort).toBeUndefined();
    } finally {
      await plain.stop();
    }
  });
});
