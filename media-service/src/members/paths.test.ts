import { execFileSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { put, raw, startFixture } from '../test/helpers';
import type { Fixture } from '../test/helpers';

const SECRET = 'TOP-SECRET-OUTSIDE-MEDIA-ROOT';

// Policy: anything malformed or able to change meaning on a second decode -> 400 before the file
// system is touched; well-formed names that do not resolve to a regular file inside the root -> 404.
const ATTEMPTS: Array<[string, 400 | 404]> = [
  ['/members/photosthumbs/../../secret.txt', 400],
  ['/members/photosthumbs/set-1/../../../secret.txt', 400],
  ['/members/photosthumbs/%2e%2e/%2e%2e/secret.txt', 400],
  ['/members/photosthumbs/%2E%2E/%2E%2E/secret.txt', 400],
  ['/members/photosthumbs/.%2e/.%2e/secret.txt', 400],
  ['/members/photosthumbs/%2e./%2e./secret.txt', 400],
  ['/members/photosthumbs/..%2f..%2fsecret.txt', 400],
  ['/members/photosthumbs/..%2F..%2Fsecret.txt', 400],
  ['/members/photosthumbs/..%5c..%5csecret.txt', 400],
  ['/members/photosthumbs/..%5C..%5Csecret.txt', 400],
  ['/members/photosthumbs/..\\..\\secret.txt', 400],
  ['/members/photosthumbs/set-1\\..\\..\\..\\secret.txt', 400],
  ['/members/photosthumbs/C:%5csecret.txt', 400],
  ['/members/photosthumbs/set-1/large.jpg%00.png', 400],
  ['/members/photosthumbs/set-1/large.jpg%00', 400],
  ['/members/photosthumbs/%00/secret.txt', 400],
  ['/members/photosthumbs/%0a/secret.txt', 400],
  ['/members/photosthumbs/set-1%0d%0aX-Injected:%201/large.jpg', 400],
  ['/members/photosthumbs//secret.txt', 400],
  ['/members//secret.txt', 400],
  ['/members/photosthumbs/set-1/large.jpg/', 400],
  ['/members/photosthumbs/%2fsecret.txt', 400],
  ['/members/photosthumbs/%2Ftmp%2Fsecret.txt', 400],
  ['/members/photosthumbs/set-1/%c0%ae%c0%ae/secret.txt', 400],
  ['/members/photosthumbs/%e0%80%ae%e0%80%ae/secret.txt', 400],
  ['/members/photosthumbs/%%32%65%%32%65/secret.txt', 400],
  ['/members/photosthumbs/%/secret.txt', 400],
  ['/members/photosthumbs/%zz/secret.txt', 400],
  ['/members/photosthumbs/set-1/.', 400],
  ['/members/photosthumbs/./set-1/large.jpg', 400],
  ['/members/photosthumbs/set-1/large.jpg/..', 400],
  ['/members/photos/..%2f..%2fphotosthumbs/set-1/large.jpg', 400],
  ['/members/..%2f..%2fsecret.txt', 400],
  ['/members/%2e%2e/secret.txt', 400],
  ['http://localhost/members/photosthumbs/../../secret.txt', 400],
  ['/members/photosthumbs/%252e%252e/%252e%252e/secret.txt', 404],
  ['/members/photosthumbs/..%252f..%252fsecret.txt', 404],
  ['/members/photosthumbs/%25252e%25252e/secret.txt', 404],
  ['/members/secret.txt', 404],
  ['/members/etc/passwd', 404],
  ['/members/photosthumbs', 404],
  ['/members/PHOTOSTHUMBS/set-1/large.jpg', 404],
  ['/members/photosthumbs/set-1', 404],
  ['/members/photosthumbs/set-1/LARGE.JPG', 404],
  ['/members/photosthumbs/set-1/large.jpg%20', 404],
  ['/members/photosthumbs/set-1/large.jpg::$DATA', 404],
  ['/members/photosthumbs/escape-dir/secret.txt', 404],
  ['/members/photosthumbs/set-1/escape-file.jpg', 404],
  ['/members/photosthumbs/root-link/tmp/secret.txt', 404],
  ['/members/photosthumbs/set-1/.hidden', 404],
  ['/members/photosthumbs/set-1/%2ehidden', 404],
  ['/members/photosthumbs/tmp/secret.txt', 404],
  ['/members/photosthumbs/%2ftmp/secret.txt', 400],
  // Not a regular file: opening a FIFO would wait for a writer, holding a libuv thread for good.
  ['/members/photosthumbs/set-1/fifo.jpg', 404],
];

describe('paths never escape MEDIA_ROOT', () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await startFixture();
    await writeFile(join(fx.dir, 'secret.txt'), SECRET);
    await mkdir(join(fx.root, 'photosthumbs'), { recursive: true });
    await symlink(fx.dir, join(fx.root, 'photosthumbs/escape-dir'));
    await symlink(join(fx.dir, 'secret.txt'), join(fx.root, 'photosthumbs/set-1/escape-file.jpg'));
    await symlink('/', join(fx.root, 'photosthumbs/root-link'));
    await put(fx.root, 'photosthumbs/set-1/.hidden', SECRET);
    await symlink(join(fx.root, 'photosthumbs/set-1/large.jpg'), join(fx.root, 'photosthumbs/set-1/inside-link.jpg'));
    execFileSync('mkfifo', [join(fx.root, 'photosthumbs/set-1/fifo.jpg')]);
  });
  afterAll(() => fx.stop());

  it('has at least 40 attempts', () => expect(ATTEMPTS.length).toBeGreaterThanOrEqual(40));

  it.each(ATTEMPTS)('%s -> %i', async (path, status) => {
    const res = await raw(fx.media.url, path);
    expect(res.status).toBe(status);
    expect(res.body.toString('latin1')).not.toContain(SECRET);
    expect(JSON.parse(res.body.toString()).error.code).toBe(status === 400 ? 'bad_path' : 'not_found');
  });

  it('answers HEAD of a FIFO 404 too', async () => {
    expect((await raw(fx.media.url, '/members/photosthumbs/set-1/fifo.jpg', {}, 'HEAD')).status).toBe(404);
  });

  it('serves a symlink that stays inside the root', async () => {
    const res = await raw(fx.media.url, '/members/photosthumbs/set-1/inside-link.jpg');
    expect(res.status).toBe(200);
  });

  it('decodes once: a percent-encoded name is served by its encoded form', async () => {
    await put(fx.root, 'freephotos/set-1/a b%c ü.jpg', 'x');
    expect((await raw(fx.media.url, '/members/freephotos/set-1/a%20b%25c%20%C3%BC.jpg')).status).toBe(200);
    expect((await raw(fx.media.url, '/members/freephotos/set-1/a%20b%2525c%20%C3%BC.jpg')).status).toBe(404);
  });

  it('answers 405 to other methods', async () => {
    const res = await raw(fx.media.url, '/members/photosthumbs/set-1/large.jpg', {}, 'DELETE');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
  });
});
