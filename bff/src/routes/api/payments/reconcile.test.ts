import { expect, it } from 'vitest';
import { approve, decline, expireOpen, listOpen } from '@media-site/db/payments';
import { pay, signIn, startAccountKit } from '../../../test/account-kit';
import { describeWithKit } from '../../../test/suite';

describeWithKit('reconciliation of unknown charges', startAccountKit, (kit) => {
  const settle = { membership: { periodDays: 30, rebills: 99 }, site: { name: 'Media Site', url: 'http://localhost:8080' } };

  it('lists unknown attempts and settles them approved or declined, once', async () => {
    await pay(kit(), { username: 'recon_yes', cardEnding: '0005' });
    await pay(kit(), { username: 'recon_no', cardEnding: '0005' });
    const open = await listOpen(kit().db.knex, 0, Date.now() + 1000);
    const [yes, no] = ['recon_yes', 'recon_no'].map((u) => open.find((a) => a.username === u));
    expect(yes?.status).toBe('unknown');
    expect(await approve(kit().db.knex, yes?.id ?? 0, '123456789012345678', settle)).toMatch(/approved/);
    expect(await approve(kit().db.knex, yes?.id ?? 0, '123456789012345678', settle)).toMatch(/already approved/);
    expect((await signIn(kit(), 'recon_yes')).res.status).toBe(200);
    expect(await decline(kit().db.knex, no?.id ?? 0)).toMatch(/declined/);
    expect((await signIn(kit(), 'recon_no')).res.status).toBe(401);
  });

  it('expires attempts nobody confirmed', async () => {
    await pay(kit(), { username: 'recon_old', cardEnding: '0005' });
    expect(await expireOpen(kit().db.knex, 0, Date.now() + 1000)).toBe(1);
    expect(await listOpen(kit().db.knex, 0, Date.now() + 1000)).toEqual([]);
  });
});
