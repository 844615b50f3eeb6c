import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNginx, type RunningNginx } from '../src/nginx';

// The front door's access log under `npm start` and the test stacks is bounded (scripts/lib/nginx.ts,
// ACCESS_LOG_MAX_BYTES): past the bound it becomes access.log.1, replacing the last one, and nginx
// writes a fresh access.log. Here with a 16 KiB bound; a line is about 300 bytes.
const MAX_BYTES = 16 * 1024;
let service: Server;
let nginx: RunningNginx;

beforeAll(async () => {
  service = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}'));
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
  nginx = await startNginx({ bffUrl: url, mediaUrl: url, spaDir: tmpdir(), mediaRoot: tmpdir(), accessLogMaxBytes: MAX_BYTES });
});
afterAll(async () => {
  await nginx?.stop();
  service?.close();
});

describe("the front door's access log", () => {
  it('is moved aside past its bound, nginx writes a fresh one, and only the last moved one is kept', async () => {
    const log = join(nginx.prefix, 'access.log');
    const read = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : '');
    let sent = 0;
    /** Requests until `done` holds: a line each (the log is looked at once a second; 20,000 lines are 6 MB). */
    const fill = async (done: () => boolean) => {
      const until = sent + 20_000;
      while (!done() && sent < until) await fetch(`${nginx.url}/api/fill/${sent++}`);
      expect(done(), `after ${sent} requests`).toBe(true);
    };

    await fill(() => existsSync(`${log}.1`));
    // nginx reopens its log: new requests land in the fresh file. A request made before nginx has
    // handled the signal still goes to the moved file, and lines reach the disk within a second
    // (`buffer=64k flush=1s`): ask until one of them is in the fresh file.
    const markers: string[] = [];
    let marker: string | undefined;
    await expect
      .poll(async () => {
        markers.push(`/api/after-the-move/${sent++}`);
        await fetch(`${nginx.url}${markers.at(-1)}`);
        const fresh = read(log);
        marker = markers.find((m) => fresh.includes(`"${m}"`));
        return marker !== undefined;
      })
      .toBe(true);
    // The next move replaces the first moved file: the first lines are gone from the disk.
    await fill(() => read(`${log}.1`).includes(`"${marker}"`));
    expect(read(`${log}.1`)).not.toContain('"/api/fill/0"');
    // Two files, once nginx has reopened its log after that move (the signal is handled a moment
    // after the rename; on a loaded machine the fresh file can be a few hundred ms late).
    await expect
      .poll(() =>
        readdirSync(nginx.prefix)
          .filter((f) => f.startsWith('access.log'))
          .sort(),
      )
      .toEqual(['access.log', 'access.log.1']);
  });
});
