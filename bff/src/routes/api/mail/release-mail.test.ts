import { expect, it } from 'vitest';
import type { Knex } from 'knex';
import { accountView } from '@media-site/contracts/member-api';
import { restore, schedule, takeDown } from '@media-site/db/content';
import { queueReleaseDigests, RELEASE_MAIL_GAP_MS, RELEASE_WINDOW_MS } from '@media-site/db/mail';
import { insertCatalog, type Catalog } from '../../../test/fixtures';
import { ORIGIN } from '../../../test/report-kit';
import { seedPlayback, startPlaybackKit } from '../../../test/playback-kit';
import { describeWithKit } from '../../../test/suite';
import { releaseMailLinks } from '../../../mail/release-digest';
import { unsubscribeHeaders } from '../../../mail/worker';
import { RELEASE_MAIL_SWITCHES_PER_MINUTE } from '../account/release-mail';
import { UNSUBSCRIBES_PER_MINUTE } from './routes';

let catalog: Catalog;
async function seed(knex: Knex): Promise<void> {
  catalog = await insertCatalog(knex);
  await seedPlayback(knex);
}

const DAY = 86_400_000;
const site = { name: 'Test Site', url: 'https://site.example' };
const links = releaseMailLinks(site);

interface OutboxRow {
  mail_key: string;
  to_address: string;
  subject: string;
  text_body: string;
  list_unsubscribe: string | null;
}

describeWithKit(
  'release mails: "New from your models" by e-mail, opt-in, one-click unsubscribe',
  (backend) => startPlaybackKit(backend, seed),
  (kit) => {
    const knex = () => kit().db.knex;
    const switchMail = (method: 'put' | 'delete', cookie: string) =>
      kit().request[method]('/api/account/release-mail').set('Origin', ORIGIN).set('Cookie', cookie);
    const mails = async (): Promise<OutboxRow[]> =>
      knex()('mail_outbox')
        .where({ template: 'release-digest' })
        .orderBy('id')
        .select('mail_key', 'to_address', 'subject', 'text_body', 'list_unsubscribe');
    const memberId = async (username: string) => Number((await knex()('members').where({ username }).first('id')).id);
    const follow = async (username: string, modelId: number, at: number) =>
      knex()('saved_items').insert({ member_id: await memberId(username), content_type: 'model', content_id: modelId, saved_at: at });
    const run = (now: number) => queueReleaseDigests(knex(), site, links, now);
    const tokenOf = (row: OutboxRow) => /token=([\w-]{43})/.exec(row.list_unsubscribe ?? '')![1]!;

    it('is off until switched on; the switch is a signed-in, same-origin call without a body, limited per member', async () => {
      expect(accountView.parse((await kit().request.get('/api/account').set('Cookie', kit().member)).body).releaseMail).toBe(false);
      expect((await kit().request.put('/api/account/release-mail').set('Origin', ORIGIN)).status).toBe(401);
      expect(
        (await kit().request.put('/api/account/release-mail').set('Origin', 'https://evil.example').set('Cookie', kit().member)).status,
      ).toBe(403);
      expect((await switchMail('put', kit().member).set('Content-Type', 'application/json').send('{"x":1}')).status).toBe(413);
      const on = await switchMail('put', kit().member);
      expect(on.status).toBe(200);
      expect(on.headers['cache-control']).toBe('no-store');
      expect(on.body).toEqual({ releaseMail: true });
      expect((await kit().request.get('/api/account').set('Cookie', kit().member)).body.releaseMail).toBe(true);
      const off = await switchMail('delete', kit().member);
      expect(off.body).toEqual({ releaseMail: false });
      expect((await kit().request.get('/api/account').set('Cookie', kit().member)).body.releaseMail).toBe(false);
      let last = 200;
      for (let i = 0; i < RELEASE_MAIL_SWITCHES_PER_MINUTE && last !== 429; i += 1) last = (await switchMail('delete', kit().buyer)).status;
      expect(last).toBe(200);
      expect((await switchMail('delete', kit().buyer)).status).toBe(429);
    });

    it('mails a follower once when their model releases, never a taken-down or scheduled item, nothing from before the opt-in', async () => {
      const now = Date.now();
      const model = catalog.models.find((m) => m.modelname === 'Bella Gamma')!;
      const [early, later, hidden] = catalog.photos.filter((p) => p.model_id === model.id);
      // Every item of the catalog is years old: nothing to mail for the followers.
      await follow('member_a', model.id, now - 10 * DAY);
      await follow('lapsed_c', model.id, now - 10 * DAY);
      await knex()('release_mail_subscriptions').insert({ member_id: await memberId('member_a'), subscribed_at: now - 5 * DAY });
      expect(await run(now)).toBe(0);

      // Three items scheduled for within the hour: none is out yet.
      for (const [item, at] of [
        [early!, now + 10 * 60_000],
        [later!, now + 20 * 60_000],
        [hidden!, now + 20 * 60_000],
      ] as const)
        await schedule(knex(), { type: 'photoset', path: item.path }, at);
      expect(await run(now)).toBe(0);

      // The first is released; the third is taken down before its time.
      await takeDown(knex(), { ref: { type: 'photoset', path: hidden!.path }, actor: 'test', reason: 'test', now });
      // Two bffs running the digest at once: one mail (the other's insert meets the primary key).
      const both = await Promise.all([run(now + 10 * 60_000), run(now + 10 * 60_000)]);
      expect(both[0] + both[1]).toBe(1);
      expect(await run(now + 11 * 60_000)).toBe(0);
      // The second, and the third's time passes while it is down. The second waits for the gap
      // after the member's last mail (a batch is one mail), then goes.
      expect(await run(now + 21 * 60_000)).toBe(0);
      expect(await run(now + 10 * 60_000 + RELEASE_MAIL_GAP_MS + 1)).toBe(1);
      const [first, second] = await mails();
      expect(await mails()).toHaveLength(2);
      expect(first!.to_address).toBe('a@example.com');
      expect(first!.subject).toBe(`New from Bella Gamma: ${early!.updatename} · Test Site`);
      expect(first!.text_body).toContain(
        `Photo set: ${early!.updatename} (Bella Gamma)\n  https://site.example/photos/${encodeURIComponent(early!.path)}`,
      );
      expect(first!.text_body).toMatch(/Stop release mails:\nhttps:\/\/site\.example\/unsubscribe#token=[\w-]{43}\n/);
      expect(first!.list_unsubscribe).toMatch(/^https:\/\/site\.example\/api\/mail\/unsubscribe\?token=[\w-]{43}$/);
      expect(second!.text_body).toContain(later!.updatename);
      expect(second!.text_body).not.toContain(hidden!.updatename);
      // Each mail has a link of its own; only its hash is stored.
      expect(tokenOf(first!)).not.toBe(tokenOf(second!));
      expect(
        await knex()('release_mail_links')
          .where({ token_hash: tokenOf(first!) })
          .first(),
      ).toBeUndefined();

      // Restored within the window: it is news now, for those not yet told.
      await restore(knex(), { ref: { type: 'photoset', path: hidden!.path }, actor: 'test', reason: 'test', now: now + 30 * 60_000 });
      expect(await run(now + 50 * 60_000)).toBe(1);
      expect((await mails()).at(-1)!.text_body).toContain(hidden!.updatename);
      // Past the window nothing is sent late.
      await schedule(knex(), { type: 'photoset', path: early!.path }, null);
      expect(await run(now + RELEASE_WINDOW_MS + DAY)).toBe(0);
    });

    it('stops with one POST of the link (RFC 8058), which needs no session and no origin; a GET only leads to the page', async () => {
      const [mail] = await mails();
      const token = tokenOf(mail!);
      await knex()('release_mail_subscriptions')
        .insert({ member_id: await memberId('member_a'), subscribed_at: Date.now() })
        .onConflict('member_id')
        .ignore();

      const opened = await kit().request.get(`/api/mail/unsubscribe?token=${token}`);
      expect(opened.status).toBe(303);
      expect(opened.headers.location).toBe(`/unsubscribe#token=${token}`);
      expect((await kit().request.get('/api/account').set('Cookie', kit().member)).body.releaseMail).toBe(true);

      const post = (query: string, body: string, type = 'form') =>
        kit().request.post(`/api/mail/unsubscribe${query}`).type(type).send(body);
      expect((await post(`?token=${token}`, '')).body.error.message).toBe('the body must be List-Unsubscribe=One-Click (RFC 8058)');
      expect((await post(`?token=${token}`, 'List-Unsubscribe=Yes')).status).toBe(400);
      expect((await post('?token=short', 'List-Unsubscribe=One-Click')).body.error.message).toBe(
        "token: must be the 43-character token of the mail's link",
      );
      expect((await post(`?token=${token}`, `List-Unsubscribe=One-Click&x=${'a'.repeat(300)}`)).status).toBe(413);
      expect((await post(`?token=${'A'.repeat(43)}`, 'List-Unsubscribe=One-Click')).status).toBe(404);

      const done = await post(`?token=${token}`, 'List-Unsubscribe=One-Click');
      expect(done.status).toBe(200);
      expect(done.body).toEqual({ message: 'Release mails are off for member_a. You can switch them on again on your account page.' });
      expect((await kit().request.get('/api/account').set('Cookie', kit().member)).body.releaseMail).toBe(false);
      // The same click again says the same.
      expect((await post(`?token=${token}`, 'List-Unsubscribe=One-Click')).status).toBe(200);
      // Her next release mails nobody.
      const model = catalog.models.find((m) => m.modelname === 'Bella Gamma')!;
      const next = catalog.photos.filter((p) => p.model_id === model.id)[3]!;
      const now = Date.now();
      await schedule(knex(), { type: 'photoset', path: next.path }, now + 60_000);
      expect(await run(now + 120_000)).toBe(0);
      let last = 200;
      for (let i = 0; i < UNSUBSCRIBES_PER_MINUTE && last !== 429; i += 1) last = (await post('?token=x', '')).status;
      expect(last).toBe(429);
    });
  },
);

it('puts List-Unsubscribe and List-Unsubscribe-Post on a mail with an http(s) address of one line, nothing otherwise', () => {
  expect(unsubscribeHeaders('https://site.example/api/mail/unsubscribe?token=abc')).toEqual({
    headers: {
      'List-Unsubscribe': '<https://site.example/api/mail/unsubscribe?token=abc>',
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  });
  for (const bad of [
    null,
    '',
    'mailto:x@example.org',
    'https://a.example/\r\nBcc: x@example.org',
    'https://a.example/>x',
    `https://a.example/${'a'.repeat(300)}`,
  ])
    expect(unsubscribeHeaders(bad), String(bad)).toEqual({});
});
