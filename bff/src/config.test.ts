import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEV_TOKEN_KEYS } from '@media-site/contracts/token';
import { DEV_ADMIN_SECRET_KEYS, DEV_SIGNIN_KEYS } from '@media-site/contracts/secret-policy';
import { refusalOf } from '@media-site/contracts/config-testing';
import { loadConfig } from './config';
import { OPERATOR_KEYS, OPERATOR_PROVIDER } from './test/production-env';

const KEY_A = OPERATOR_KEYS.a;
const PRODUCTION = {
  NODE_ENV: 'production',
  DATABASE_URL: `mysql://media_site:${randomBytes(24).toString('hex')}@mysql:3306/media_site`,
  MEDIA_TOKEN_KEYS: `k2:${OPERATOR_KEYS.a},k1:${OPERATOR_KEYS.b}`,
  SIGNIN_KEYS: `s1:${OPERATOR_KEYS.signin}`,
  ADMIN_SECRET_KEYS: `a1:${OPERATOR_KEYS.admin}`,
  WEBHOOK_PROXY_SECRET: OPERATOR_KEYS.webhookProxy,
  TRUSTED_PROXIES: '172.30.0.10',
  SITE_URL: 'https://media.example.com',
  SMTP_URL: `smtps://relay-user:${randomBytes(18).toString('hex')}@smtp.relay.test:465`,
  MAIL_FROM: '"Media Site" <no-reply@mail.media-site.test>',
  ...OPERATOR_PROVIDER,
};

const refusal = (env: Record<string, string | undefined>): string => refusalOf(loadConfig, env);

describe('production configuration', () => {
  it('refuses mail links to a local or plain-http site address (SITE_URL)', () => {
    for (const url of [undefined, 'http://media.example.com', 'https://localhost:8443', 'https://127.0.0.1']) {
      expect(refusal({ ...PRODUCTION, SITE_URL: url })).toContain('SITE_URL');
    }
    expect(refusal({ ...PRODUCTION, SITE_URL: 'https://media.example.com/members' })).toContain('no path');
  });

  it('starts from an operator-set production environment', () => {
    const config = loadConfig(PRODUCTION);
    expect(config.NODE_ENV).toBe('production');
    expect(config.MEDIA_TOKEN_KEYS.ring.signing.kid).toBe('k2');
    expect(config.TRUSTED_PROXIES.has('172.30.0.10')).toBe(true);
  });

  it.each(['Production', ' production', 'PRODUCTION', 'production\n'])('treats NODE_ENV=%j as production', (spelling) => {
    expect(loadConfig({ ...PRODUCTION, NODE_ENV: spelling }).NODE_ENV).toBe('production');
    expect(refusal({ ...PRODUCTION, NODE_ENV: spelling, MEDIA_TOKEN_KEYS: undefined })).toMatch(
      /MEDIA_TOKEN_KEYS: is the local development default/,
    );
  });

  it('refuses a NODE_ENV it does not know, naming the accepted values; unset or empty is development', () => {
    expect(refusal({ NODE_ENV: 'prod' })).toMatch(/NODE_ENV: "prod" is not one of production, development, test/);
    expect(refusal({ NODE_ENV: 'staging' })).toMatch(/NODE_ENV: "staging"/);
    expect(loadConfig({}).NODE_ENV).toBe('development');
    expect(loadConfig({ NODE_ENV: ' ' }).NODE_ENV).toBe('development');
    expect(loadConfig({ NODE_ENV: 'Test' }).NODE_ENV).toBe('test');
  });

  describe('MEDIA_TOKEN_KEYS', () => {
    it.each([
      ['the compose / .env.example default', 'k1:change-me-media-token-key-0123456789', /key "k1" is a value published in this repository/],
      ['the development key, alone', DEV_TOKEN_KEYS, /is the local development default/],
      ['the development key, listed second', `k2:${KEY_A},${DEV_TOKEN_KEYS}`, /key "dev" is a value published/],
      ['a secret containing change-me in any case', `k1:${KEY_A}CHANGE-ME`, /key "k1" contains "CHANGE-ME"/],
      ['16 bytes of hex', 'k1:0f1e2d3c4b5a69788796a5b4c3d2e1f0', /key "k1" is 16 bytes as hex; it needs 32 random bytes/],
      ['24 bytes of base64', 'k1:q0Vb2m8XoZ3rT6yLp1NcWd4Hs7Ke9Gj5', /key "k1" is 24 bytes as base64/],
      [
        'a long phrase of one kind of character',
        'k1:correct horse battery staple purple monkey dishwasher',
        /key "k1" is 53 characters of plain text/,
      ],
      ['one character repeated', `k1:${'A'.repeat(64)}`, /key "k1" uses only 1 different characters/],
    ])('refuses %s, saying how to generate a key', (_what, keys, message) => {
      const text = refusal({ ...PRODUCTION, MEDIA_TOKEN_KEYS: keys });
      expect(text).toMatch(message);
      expect(text).toMatch(/MEDIA_TOKEN_KEYS: .*openssl rand -base64 48/);
    });

    it('accepts the same weak keys outside production', () => {
      expect(loadConfig({ MEDIA_TOKEN_KEYS: 'k1:change-me-media-token-key-0123456789' }).MEDIA_TOKEN_KEYS.ring.signing.kid).toBe('k1');
    });
  });

  describe('SIGNIN_KEYS', () => {
    it('is a ring of its own: the first key signs', () => {
      expect(loadConfig(PRODUCTION).SIGNIN_KEYS.ring.signing.kid).toBe('s1');
      expect(loadConfig({}).SIGNIN_KEYS.spec).toBe(DEV_SIGNIN_KEYS);
    });

    it.each([
      ['unset (the development default)', undefined, /SIGNIN_KEYS: is the local development default/],
      [
        'the development key, listed second',
        `s2:${OPERATOR_KEYS.signin},${DEV_SIGNIN_KEYS}`,
        /SIGNIN_KEYS: key "dev" is a value published/,
      ],
      ['24 bytes of base64', 'k1:q0Vb2m8XoZ3rT6yLp1NcWd4Hs7Ke9Gj5', /SIGNIN_KEYS: key "k1" is 24 bytes as base64/],
      ['a MEDIA_TOKEN_KEYS secret', `s1:${OPERATOR_KEYS.b}`, /SIGNIN_KEYS: key "s1" is also a MEDIA_TOKEN_KEYS secret/],
      ['a MEDIA_TOKEN_KEYS secret under the same id', `k2:${OPERATOR_KEYS.a}`, /SIGNIN_KEYS: key "k2" is also a MEDIA_TOKEN_KEYS secret/],
    ])('refuses %s in production', (_what, keys, message) => {
      expect(refusal({ ...PRODUCTION, SIGNIN_KEYS: keys })).toMatch(message);
    });

    it('refuses a malformed ring anywhere', () => {
      expect(refusal({ SIGNIN_KEYS: 'no-colon-here' })).toMatch(/SIGNIN_KEYS: key id "" must be/);
    });
  });

  describe('ADMIN_SECRET_KEYS', () => {
    it('is a ring of its own with a local default outside production', () => {
      expect(loadConfig(PRODUCTION).ADMIN_SECRET_KEYS.ring.signing.kid).toBe('a1');
      expect(loadConfig({}).ADMIN_SECRET_KEYS.spec).toBe(DEV_ADMIN_SECRET_KEYS);
    });

    it.each([
      ['unset (the development default)', undefined, /ADMIN_SECRET_KEYS: is the local development default/],
      ['24 bytes of base64', 'a1:q0Vb2m8XoZ3rT6yLp1NcWd4Hs7Ke9Gj5', /ADMIN_SECRET_KEYS: key "a1" is 24 bytes as base64/],
      ['a SIGNIN_KEYS secret', `a1:${OPERATOR_KEYS.signin}`, /ADMIN_SECRET_KEYS: key "a1" is also a SIGNIN_KEYS secret/],
      ['a MEDIA_TOKEN_KEYS secret', `a1:${OPERATOR_KEYS.b}`, /ADMIN_SECRET_KEYS: key "a1" is also a MEDIA_TOKEN_KEYS secret/],
    ])('refuses %s in production', (_what, keys, message) => {
      expect(refusal({ ...PRODUCTION, ADMIN_SECRET_KEYS: keys })).toMatch(message);
    });
  });

  describe('card provider', () => {
    it.each([
      ['CCBILL_FRONTEND_SECRET', 'sim-frontend-secret-local-only', /CCBILL_FRONTEND_SECRET: is a value published in this repository/],
      ['CCBILL_BACKEND_SECRET', 'sim-backend-secret-local-only', /CCBILL_BACKEND_SECRET: is a value published/],
      ['CCBILL_BACKEND_SECRET', 'Change-Me-backend-secret', /CCBILL_BACKEND_SECRET: contains "Change-Me"/],
      ['CCBILL_FRONTEND_SECRET', 'secret', /CCBILL_FRONTEND_SECRET: is 6 characters with 5 different ones/],
      ['CCBILL_FRONTEND_APP_ID', 'sim-frontend-app', /CCBILL_FRONTEND_APP_ID: is the simulator's; set the frontend application id/],
      ['CCBILL_BACKEND_APP_ID', 'sim-backend-app', /CCBILL_BACKEND_APP_ID: is the simulator's/],
      ['CCBILL_CLIENT_ACCNUM', '900000', /CCBILL_CLIENT_ACCNUM: 900000 is the simulator's account/],
      ['CCBILL_BASE_URL', 'http://127.0.0.1:3003', /CCBILL_BASE_URL: "http:\/\/127.0.0.1:3003" is this machine/],
      ['CCBILL_BASE_URL', 'https://localhost:8443', /CCBILL_BASE_URL: .* is this machine/],
      ['CCBILL_BASE_URL', 'https://[::1]:3003', /CCBILL_BASE_URL: .* is this machine/],
      [
        'CCBILL_BASE_URL',
        'http://api.ccbill.com',
        /CCBILL_BASE_URL: "http:\/\/api.ccbill.com" is plain http; production calls the provider over https/,
      ],
      ['CCBILL_PUBLIC_BASE_URL', 'http://payments.example.com', /CCBILL_PUBLIC_BASE_URL: .* is plain http/],
    ])('refuses %s=%s', (name, value, message) => {
      expect(refusal({ ...PRODUCTION, [name]: value })).toMatch(message);
    });

    // A trailing dot is the same host, fully qualified; the other spellings of loopback too.
    it.each([
      'https://localhost.',
      'https://LOCALHOST.',
      'https://localhost..',
      'https://127.0.0.1.',
      'https://[::1]',
      'https://0.0.0.0',
      'https://[::ffff:127.0.0.1]',
      'https://app.localhost.',
    ])('refuses CCBILL_BASE_URL=%s: this machine', (url) => {
      expect(refusal({ ...PRODUCTION, CCBILL_BASE_URL: url })).toMatch(/CCBILL_BASE_URL: .* is this machine/);
    });

    it('refuses the simulator defaults when nothing is set, listing every one', () => {
      const text = refusal({ NODE_ENV: 'production', MEDIA_TOKEN_KEYS: PRODUCTION.MEDIA_TOKEN_KEYS });
      for (const name of [
        'CCBILL_BASE_URL',
        'CCBILL_CLIENT_ACCNUM',
        'CCBILL_FRONTEND_APP_ID',
        'CCBILL_FRONTEND_SECRET',
        'CCBILL_BACKEND_APP_ID',
        'CCBILL_BACKEND_SECRET',
      ]) {
        expect(text).toContain(`${name}: `);
      }
    });
  });

  it('refuses the example database password', () => {
    const text = refusal({ ...PRODUCTION, DATABASE_URL: 'mysql://media_site:change-me-app@mysql:3306/media_site' });
    expect(text).toMatch(/DATABASE_URL: the password contains "change-me"/);
  });

  describe('TRUSTED_PROXIES', () => {
    it.each(['127.0.0.1,::1,10.0.0.0/8,172.16.0.0/12,192.168.0.0/16', '127.0.0.0/8', '172.18.0.0/16', '10.0.0.1-10.0.3.255', 'fd00::/48'])(
      'refuses %s: a whole private range could forge client addresses',
      (list) => {
        expect(refusal({ ...PRODUCTION, TRUSTED_PROXIES: list })).toMatch(
          /TRUSTED_PROXIES: .*reach(es)? past one \/24 .*TRUSTED_PROXIES_ALLOW_WIDE=true/,
        );
      },
    );

    it('accepts one proxy network at most (/24, /64), or a wide range on explicit opt-in', () => {
      expect(
        loadConfig({ ...PRODUCTION, TRUSTED_PROXIES: '172.30.0.0/24,fd00:1:2:3::/64,10.0.0.1-10.0.0.254' }).TRUSTED_PROXIES.wide,
      ).toEqual([]);
      expect(
        loadConfig({ ...PRODUCTION, TRUSTED_PROXIES: '10.0.0.0/8', TRUSTED_PROXIES_ALLOW_WIDE: 'true' }).TRUSTED_PROXIES.has('10.9.8.7'),
      ).toBe(true);
      // Outside production the old compose list still loads (the forged-webhook test shows what it lets through).
      expect(loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8' }).TRUSTED_PROXIES.has('10.9.8.7')).toBe(true);
    });

    it.each(['::ffff:0:0/96', '::ffff:10.0.0.0/104', '::ffff:172.16.0.0/108', '::/80', '::ffff:1.2.3.4-::ffff:1.2.5.4'])(
      'counts the IPv4-mapped entry %s as the IPv4 range it stands for: wide',
      (list) => {
        expect(refusal({ ...PRODUCTION, TRUSTED_PROXIES: list })).toMatch(/TRUSTED_PROXIES: .*reach(es)? past one \/24/);
      },
    );

    it('accepts one IPv4-mapped proxy address or /24', () => {
      expect(loadConfig({ ...PRODUCTION, TRUSTED_PROXIES: '::ffff:172.30.89.10,::ffff:172.30.89.0/120' }).TRUSTED_PROXIES.wide).toEqual([]);
    });

    it('refuses a webhook allow-list wider than the provider publishes', () => {
      expect(refusal({ ...PRODUCTION, WEBHOOK_ALLOWED_IPS: '64.38.0.0/16' })).toMatch(
        /WEBHOOK_ALLOWED_IPS: 64.38.0.0\/16 reaches past one \/24/,
      );
    });
  });

  describe('WEBHOOK_ALLOWED_IPS: private and loopback sources', () => {
    it.each([
      '127.0.0.1',
      '::1',
      '172.30.89.20',
      '10.1.2.3',
      '192.168.1.0/24',
      'fd00::1',
      'fe80::1',
      '::ffff:10.1.2.3',
      '0.0.0.0',
      '100.64.0.1',
      '64.38.212.0/24,127.0.0.1',
    ])('refuses %s in production unless WEBHOOK_ALLOWED_IPS_ALLOW_PRIVATE=true', (list) => {
      expect(refusal({ ...PRODUCTION, WEBHOOK_ALLOWED_IPS: list })).toMatch(
        /WEBHOOK_ALLOWED_IPS: .* private or loopback: .*WEBHOOK_ALLOWED_IPS_ALLOW_PRIVATE=true/,
      );
      expect(
        loadConfig({ ...PRODUCTION, WEBHOOK_ALLOWED_IPS: list, WEBHOOK_ALLOWED_IPS_ALLOW_PRIVATE: 'true' }).WEBHOOK_ALLOWED_IPS.local
          .length,
      ).toBeGreaterThan(0);
    });

    it('accepts the provider ranges and public addresses as they are', () => {
      expect(loadConfig(PRODUCTION).WEBHOOK_ALLOWED_IPS.local).toEqual([]);
      expect(
        loadConfig({ ...PRODUCTION, WEBHOOK_ALLOWED_IPS: '64.38.212.0/24,2001:db8::10,::ffff:64.38.215.7' }).WEBHOOK_ALLOWED_IPS.local,
      ).toEqual([]);
    });
  });

  describe('WEBHOOK_PROXY_SECRET', () => {
    it.each([
      ['unset', undefined, /WEBHOOK_PROXY_SECRET: is required in production/],
      ['empty', '', /WEBHOOK_PROXY_SECRET: is required in production/],
      ['16 bytes of hex', '0f1e2d3c4b5a69788796a5b4c3d2e1f0', /WEBHOOK_PROXY_SECRET: is 16 bytes as hex/],
      ['a change-me placeholder', `change-me-${OPERATOR_KEYS.webhookProxy}`, /WEBHOOK_PROXY_SECRET: contains "change-me"/],
    ])('refuses it %s in production, saying how to make one', (_what, value, message) => {
      const text = refusal({ ...PRODUCTION, WEBHOOK_PROXY_SECRET: value });
      expect(text).toMatch(message);
      expect(text).toMatch(/WEBHOOK_PROXY_SECRET: .*openssl rand -hex 32/);
    });

    it('refuses characters nginx would read as syntax, anywhere', () => {
      expect(refusal({ WEBHOOK_PROXY_SECRET: `${OPERATOR_KEYS.webhookProxy}$host` })).toMatch(/WEBHOOK_PROXY_SECRET: letters, digits and/);
      expect(refusal({ WEBHOOK_PROXY_SECRET: `${OPERATOR_KEYS.webhookProxy}" always` })).toMatch(
        /WEBHOOK_PROXY_SECRET: letters, digits and/,
      );
    });

    it('is optional outside production (the source address alone)', () => {
      expect(loadConfig({}).WEBHOOK_PROXY_SECRET).toBeUndefined();
    });
  });

  describe('mail (SMTP_URL, MAIL_DIR, MAIL_FROM)', () => {
    it('refuses to start without SMTP_URL, unless MAIL_DIR says where someone collects the files', () => {
      expect(refusal({ ...PRODUCTION, SMTP_URL: undefined })).toMatch(/SMTP_URL: set the relay mail goes through/);
      expect(refusal({ ...PRODUCTION, SMTP_URL: '' })).toContain('SMTP_URL');
      const files = loadConfig({ ...PRODUCTION, SMTP_URL: undefined, MAIL_DIR: '/var/spool/media-site' });
      expect(files.mail.smtpUrl).toBeUndefined();
      expect(files.mail.dir).toBe('/var/spool/media-site');
    });

    it('refuses the localhost From address and example domains, and a placeholder relay password', () => {
      expect(refusal({ ...PRODUCTION, MAIL_FROM: undefined })).toMatch(/MAIL_FROM: set the From address on your own sending domain/);
      expect(refusal({ ...PRODUCTION, MAIL_FROM: 'no-reply@localhost' })).toContain('MAIL_FROM');
      expect(refusal({ ...PRODUCTION, MAIL_FROM: 'Media <no-reply@example.com>' })).toContain('MAIL_FROM');
      expect(refusal({ ...PRODUCTION, SMTP_URL: 'smtps://user:change-me@smtp.relay.test:465' })).toMatch(/SMTP_URL: the password contains/);
    });

    it('takes smtp:// and smtps:// URLs only, and a From that is an address', () => {
      expect(loadConfig({ ...PRODUCTION, SMTP_URL: 'smtp://user:pw%40x@smtp.relay.test:587' }).mail.smtpUrl).toBe(
        'smtp://user:pw%40x@smtp.relay.test:587',
      );
      for (const url of ['http://smtp.relay.test', 'smtp.relay.test:587', 'smtp://', 'smtps:// x'])
        expect(refusal({ SMTP_URL: url })).toContain('SMTP_URL: must be an smtp://');
      for (const from of [
        'Media Site',
        'a@b@c',
        '<no-reply@x.test',
        'x'.repeat(190) + '@mail.test.example',
        'Media\r\nBcc: x@y.test <no-reply@mail.test>',
        'Media\u0000 <no-reply@mail.test>',
      ])
        expect(refusal({ MAIL_FROM: from })).toContain('MAIL_FROM');
      expect(loadConfig({ MAIL_FROM: 'Media <no-reply@mail.test>' }).mail.from).toBe('Media <no-reply@mail.test>');
    });

    it('outside production: .eml files under DATA_DIR/outbox, From the site name at localhost, the worker on', () => {
      const config = loadConfig({ DATA_DIR: '/tmp/site-data', SITE_NAME: 'Clips "R" Us' });
      expect(config.mail).toEqual({
        worker: true,
        pollMs: 1000,
        from: '"Clips R Us" <no-reply@localhost>',
        smtpUrl: undefined,
        dir: '/tmp/site-data/outbox',
      });
      expect(loadConfig({ MAIL_WORKER: 'off', MAIL_POLL_MS: '250' }).mail).toMatchObject({ worker: false, pollMs: 250 });
      expect(refusal({ MAIL_WORKER: 'no' })).toContain('MAIL_WORKER');
      expect(refusal({ MAIL_POLL_MS: '10' })).toContain('MAIL_POLL_MS');
      expect(refusal({ MAIL_POLL_MS: '60001' })).toContain('MAIL_POLL_MS');
    });
  });

  it('lists every problem at once', () => {
    const text = refusal({
      ...PRODUCTION,
      MEDIA_TOKEN_KEYS: DEV_TOKEN_KEYS,
      CCBILL_CLIENT_ACCNUM: '900000',
      TRUSTED_PROXIES: '10.0.0.0/8',
    });
    expect(text.match(/^ {2}\S+: /gm)).toHaveLength(3);
  });
});

describe('scaling configuration (read replicas, Redis Sentinel)', () => {
  it('takes one or more read replica URLs and refuses anything else', () => {
    expect(loadConfig({ DATABASE_READ_URL: 'mysql://r@a:3306/db, mysql://r@b:3306/db' }).DATABASE_READ_URL).toBe(
      'mysql://r@a:3306/db, mysql://r@b:3306/db',
    );
    expect(loadConfig({}).DATABASE_READ_URL).toBeUndefined();
    expect(refusal({ DATABASE_READ_URL: 'mysql://r@a/db,postgres://b/db' })).toMatch(
      /DATABASE_READ_URL: must be one or more comma-separated mysql:\/\/ or mariadb:\/\/ URLs/,
    );
  });

  it('takes sentinels with their master name, and refuses either without the other or a bad address', () => {
    const config = loadConfig({
      REDIS_URL: 'redis://x:6379/2',
      REDIS_SENTINELS: '10.0.0.1:26379,[fd00::2]:26379',
      REDIS_SENTINEL_NAME: 'site',
    });
    expect(config.REDIS_SENTINELS).toBe('10.0.0.1:26379,[fd00::2]:26379');
    expect(refusal({ REDIS_SENTINELS: '10.0.0.1:26379' })).toMatch(/REDIS_SENTINEL_NAME: required with REDIS_SENTINELS/);
    expect(refusal({ REDIS_SENTINEL_NAME: 'site' })).toMatch(/REDIS_SENTINELS: required with REDIS_SENTINEL_NAME/);
    expect(refusal({ REDIS_SENTINELS: 'sentinel-a', REDIS_SENTINEL_NAME: 'site' })).toMatch(
      /REDIS_SENTINELS: "sentinel-a" is not host:port/,
    );
    expect(refusal({ REDIS_SENTINELS: 'a:99999', REDIS_SENTINEL_NAME: 'site' })).toMatch(/"a:99999" is not host:port/);
  });
});
