import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAYER_REPORT_BODY_LIMIT, PLAYER_REPORT_EVENTS_MAX } from '@media-site/contracts/player-report';
import { testBackends } from '@media-site/db/testing';
import { browserFamily, playerRegistry, renditionLabel } from '../../../player-metrics';
import { ORIGIN, startReportKit, type ReportKit } from '../../../test/report-kit';
import { seedPlayback, signInAs } from '../../../test/playback-kit';
import { PLAYER_REPORTS_PER_MINUTE } from './routes';

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const EDGE = `${CHROME} Edg/131.0.0.0`;
const SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

/** The value of one series of the player registry (a histogram's `_count` or `_sum` by name), 0 when absent. */
async function sample(name: string, labels: Record<string, string>): Promise<number> {
  const text = await playerRegistry.metrics();
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && wanted.every((w) => l.includes(w)) && !l.includes('le="'));
  return line ? Number(line.split(' ').pop()) : 0;
}

describe('player labels', () => {
  it('puts a rendition on a ladder step and a browser in a family, whatever they say', () => {
    expect([2160, 1080, 1079, 720, 576, 480, 479, 240].map(renditionLabel)).toEqual([
      '1080p',
      '1080p',
      '720p',
      '720p',
      '480p',
      '480p',
      'low',
      'low',
    ]);
    expect([CHROME, EDGE, SAFARI, FIREFOX, 'curl/8.1', ''].map(browserFamily)).toEqual([
      'chrome',
      'edge',
      'safari',
      'firefox',
      'other',
      'other',
    ]);
    // A User-Agent is text from the request: nothing of it but the family reaches a label.
    expect(browserFamily('x'.repeat(100_000) + ' Firefox/1')).toBe('firefox');
  });
});

describe.each(testBackends())('player quality reports: POST /api/player/reports (%s)', (backend) => {
  let kit: ReportKit;
  let member: string;
  let buyer: string;
  beforeAll(async () => {
    kit = await startReportKit(backend, seedPlayback);
    [member, buyer] = [await signInAs(kit, 'member_a'), await signInAs(kit, 'buyer_b')];
  });
  afterAll(() => kit?.close());

  const report = (body: unknown, { cookie = member, ua = CHROME, origin = ORIGIN } = {}) =>
    kit.request
      .post('/api/player/reports')
      .set({ Cookie: cookie, Origin: origin, 'User-Agent': ua, 'Content-Type': 'application/json' })
      .send(JSON.stringify(body));

  it('counts each event by rendition and browser family, and stores nothing', async () => {
    const before = {
      starts: await sample('player_time_to_first_frame_seconds_count', { rendition: '720p', browser: 'edge' }),
      stalls: await sample('player_stall_seconds_count', { rendition: '720p', browser: 'edge' }),
      stallSum: await sample('player_stall_seconds_sum', { rendition: '720p', browser: 'edge' }),
      down: await sample('player_quality_switches_total', { direction: 'down', browser: 'edge' }),
      network: await sample('player_errors_total', { kind: 'network', browser: 'edge' }),
    };
    const res = await report(
      {
        events: [
          { kind: 'start', rendition: 720, ms: 850 },
          { kind: 'stall', rendition: 720, ms: 1500 },
          { kind: 'stall', rendition: 720, ms: 500 },
          { kind: 'switch', rendition: 480, from: 720 },
          { kind: 'error', rendition: 480, error: 'network' },
        ],
      },
      { ua: EDGE },
    );
    expect(res.status).toBe(204);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(await sample('player_time_to_first_frame_seconds_count', { rendition: '720p', browser: 'edge' })).toBe(before.starts + 1);
    expect(await sample('player_stall_seconds_count', { rendition: '720p', browser: 'edge' })).toBe(before.stalls + 2);
    expect(await sample('player_stall_seconds_sum', { rendition: '720p', browser: 'edge' })).toBeCloseTo(before.stallSum + 2);
    expect(await sample('player_quality_switches_total', { direction: 'down', browser: 'edge' })).toBe(before.down + 1);
    expect(await sample('player_errors_total', { kind: 'network', browser: 'edge' })).toBe(before.network + 1);
    // No label carries anything but the closed sets.
    for (const line of (await playerRegistry.metrics()).split('\n').filter((l) => l.startsWith('player_'))) {
      expect(line).toMatch(/^player_\w+\{(?:(?:le|rendition|browser|direction|kind)="[\w.+]+",?)+\} \S+$/);
    }
  });

  it('needs a signed-in member (401) from the site itself (403)', async () => {
    const body = { events: [{ kind: 'start', rendition: 720, ms: 1 }] };
    expect((await report(body, { cookie: '' })).status).toBe(401);
    expect((await report(body, { origin: 'https://elsewhere.example' })).status).toBe(403);
  });

  it.each([
    [{ events: [] }, /events must not be empty/],
    [{ events: [{ kind: 'seek', rendition: 720, ms: 1 }] }, /kind must be start, stall, switch or error/],
    [{ events: [{ kind: 'stall', rendition: 720, ms: -1 }] }, /ms must not be negative/],
    [{ events: [{ kind: 'stall', rendition: 720, ms: 600_001 }] }, /600000/],
    [{ events: [{ kind: 'error', rendition: 720, error: 'Something <b>new</b>' }] }, /error/],
    [{ events: [{ kind: 'start', rendition: 720.5, ms: 1 }] }, /rendition must be whole pixels/],
    [{ events: [{ kind: 'start', rendition: 720, ms: 1, page: '/videos/x' }] }, /unrecognized key/i],
  ])('refuses %j with 400', async (body, message) => {
    const res = await report(body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('bad_request');
    expect(res.body.error.message).toMatch(message);
  });

  it(`refuses more than ${PLAYER_REPORT_EVENTS_MAX} events (400), a body over ${PLAYER_REPORT_BODY_LIMIT} bytes unread (413), and a body that is not JSON (415)`, async () => {
    const many = { events: Array.from({ length: PLAYER_REPORT_EVENTS_MAX + 1 }, () => ({ kind: 'start', rendition: 720, ms: 1 })) };
    expect((await report(many)).body.error.message).toMatch(`at most ${PLAYER_REPORT_EVENTS_MAX} events`);
    const large = await report({ events: [{ kind: 'start', rendition: 720, ms: 1 }], pad: 'x'.repeat(PLAYER_REPORT_BODY_LIMIT) });
    expect(large.status).toBe(413);
    const text = await kit.request
      .post('/api/player/reports')
      .set({ Cookie: member, Origin: ORIGIN, 'Content-Type': 'text/plain' })
      .send('{"events":[]}');
    expect(text.status).toBe(415);
  });

  it(`takes ${PLAYER_REPORTS_PER_MINUTE} reports a minute from one member, then 429`, async () => {
    const body = { events: [{ kind: 'stall', rendition: 1080, ms: 100 }] };
    for (let i = 0; i < PLAYER_REPORTS_PER_MINUTE; i++) expect((await report(body, { cookie: buyer })).status).toBe(204);
    const refused = await report(body, { cookie: buyer });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('rate_limited');
    // Another member's budget is their own.
    expect((await report(body)).status).toBe(204);
  });
});
