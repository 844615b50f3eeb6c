import { describe, expect, it } from 'vitest';
import { parseKeyRing, signSessionToken } from '@media-site/contracts/token';
import { signDeviceCookie, verifyDeviceCookie } from './device-cookie';

const keys = parseKeyRing('k2:second-key-0123456789abcdef,k1:first-key-0123456789abcdef');
const old = parseKeyRing('k1:first-key-0123456789abcdef');

describe('device cookie', () => {
  it('names the username in lower case and keeps the device id across sign-ins', () => {
    const first = verifyDeviceCookie(keys, signDeviceCookie(keys, 'Owner_1'));
    expect(first?.username).toBe('owner_1');
    expect(verifyDeviceCookie(keys, signDeviceCookie(keys, 'owner_1', first))).toEqual(first);
    // Another username on the same browser: a new device id.
    expect(verifyDeviceCookie(keys, signDeviceCookie(keys, 'someone', first))?.id).not.toBe(first?.id);
  });

  it('verifies with any listed key and refuses edits, unknown keys and other tokens', () => {
    const signedBefore = signDeviceCookie(old, 'owner_1');
    expect(verifyDeviceCookie(keys, signedBefore)?.username).toBe('owner_1');
    expect(verifyDeviceCookie(parseKeyRing('k3:third-key-0123456789abcdef'), signedBefore)).toBeUndefined();
    const value = signDeviceCookie(keys, 'owner_1');
    const [prefix, kid, user, id, sig] = value.split('.') as [string, string, string, string, string];
    expect(verifyDeviceCookie(keys, [prefix, kid, 'owner_2', id, sig].join('.'))).toBeUndefined();
    expect(verifyDeviceCookie(keys, [prefix, kid, user, id.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')), sig].join('.'))).toBeUndefined();
    expect(verifyDeviceCookie(keys, `${value}x`)).toBeUndefined();
    expect(verifyDeviceCookie(keys, undefined)).toBeUndefined();
    expect(
      verifyDeviceCookie(
        keys,
        signSessionToken(keys, { memberId: 1, expiresAt: Date.now() / 1000 + 60, membershipActiveUntil: null, vodPaths: [] }),
      ),
    ).toBeUndefined();
  });
});
