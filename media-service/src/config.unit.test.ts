import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { DEV_TOKEN_KEYS } from '@media-site/contracts/token';
import { refusalOf } from '@media-site/contracts/config-testing';

// Made at run time, as an operator would: a key written here would be one the repository publishes.
const KEY_A = randomBytes(48).toString('base64');
const PRODUCTION = {
  NODE_ENV: 'production',
  MEDIA_TOKEN_KEYS: `k2:${KEY_A}`,
  MEDIA_REVOCATION_URL: 'http://bff:3001/internal/media-revocations',
};

const refusal = (env: Record<string, string | undefined>): string => refusalOf(loadConfig, env);

describe('media-service configuration in production', () => {
  it('starts with a strong key ring', () => {
    expect(loadConfig(PRODUCTION).keys.signing.kid).toBe('k2');
  });

  it.each(['Production', ' production', 'PRODUCTION'])('treats NODE_ENV=%j as production', (spelling) => {
    expect(refusal({ NODE_ENV: spelling })).toMatch(
      /MEDIA_TOKEN_KEYS: is the local development default \(is it set\?\); generate one with `openssl rand -base64 48`/,
    );
  });

  it('refuses a NODE_ENV it does not know', () => {
    expect(refusal({ NODE_ENV: 'prod' })).toMatch(/NODE_ENV: "prod" is not one of production, development, test/);
  });

  it.each([
    ['the compose / .env.example default', 'k1:change-me-media-token-key-0123456789', /key "k1" is a value published in this repository/],
    ['the development key listed second', `k2:${KEY_A},${DEV_TOKEN_KEYS}`, /key "dev" is a value published/],
    ['change-me in any case', `k1:${KEY_A}Change-Me`, /key "k1" contains "Change-Me"/],
    ['16 bytes of hex', 'k1:0f1e2d3c4b5a69788796a5b4c3d2e1f0', /key "k1" is 16 bytes as hex/],
    ['a short phrase', 'k1:Correct horse battery 1', /key "k1" is 23 characters of plain text/],
  ])('refuses %s', (_what, keys, message) => {
    expect(refusal({ ...PRODUCTION, MEDIA_TOKEN_KEYS: keys })).toMatch(message);
  });

  it("refuses the local S3 server's fixed keys and placeholders for the bucket, which other NODE_ENVs take", () => {
    const s3 = { STORAGE: 's3', S3_ENDPOINT: 'http://127.0.0.1:4569', S3_BUCKET: 'media', S3_ACCESS_KEY_ID: 'S3RVER' };
    expect(refusal({ ...PRODUCTION, ...s3, S3_SECRET_ACCESS_KEY: 'S3RVER' })).toMatch(
      /S3_SECRET_ACCESS_KEY: is the local S3 server's fixed key \(local use only\); production needs the bucket's own credentials/,
    );
    expect(refusal({ ...PRODUCTION, ...s3, S3_SECRET_ACCESS_KEY: 'change-me' })).toMatch(/S3_SECRET_ACCESS_KEY: contains "change-me"/);
    expect(loadConfig({ ...s3, NODE_ENV: 'development', S3_SECRET_ACCESS_KEY: 'S3RVER' }).s3?.secretAccessKey).toBe('S3RVER');
    expect(loadConfig({ ...PRODUCTION, ...s3, S3_SECRET_ACCESS_KEY: randomBytes(30).toString('base64') }).s3?.bucket).toBe('media');
  });

  it('keeps the local defaults outside production', () => {
    expect(loadConfig({}).keys.signing.kid).toBe('dev');
    expect(loadConfig({ NODE_ENV: 'test', MEDIA_TOKEN_KEYS: 'k1:change-me-media-token-key-0123456789' }).keys.signing.kid).toBe('k1');
  });
});
