import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

// A software authenticator for tests: an ES256 key pair made with node:crypto, and the
// attestation and assertion a browser would send for it (authenticator data, clientDataJSON and,
// for an assertion, the signature over both), as @simplewebauthn/browser would pass them on.

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

export interface SoftAuthenticator {
  credentialId: Buffer;
  privateKey: KeyObject;
  publicJwk: { x: string; y: string };
  counter: number;
}

export function softAuthenticator(): SoftAuthenticator {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  return { credentialId: randomBytes(32), privateKey, publicJwk: { x: jwk.x!, y: jwk.y! }, counter: 0 };
}

function clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string): Buffer {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
}

function counterBytes(counter: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(counter);
  return b;
}

/** A PublicKeyCredential as @simplewebauthn/browser serialises it. */
function credentialJson<R>(auth: SoftAuthenticator, response: R) {
  const id = b64url(auth.credentialId);
  return { id, rawId: id, type: 'public-key' as const, clientExtensionResults: {}, response };
}

/** The registration response for `navigator.credentials.create()` (attestation "none"). */
export function attestation(auth: SoftAuthenticator, o: { challenge: string; origin: string; rpId: string; userVerified?: boolean }) {
  const cose = new Map<number, number | Uint8Array>([
    [1, 2], // kty: EC2
    [3, -7], // alg: ES256
    [-1, 1], // crv: P-256
    [-2, Buffer.from(auth.publicJwk.x, 'base64url')],
    [-3, Buffer.from(auth.publicJwk.y, 'base64url')],
  ]);
  const idLength = Buffer.alloc(2);
  idLength.writeUInt16BE(auth.credentialId.length);
  const authData = Buffer.concat([
    sha256(o.rpId),
    Buffer.from([FLAG_UP | FLAG_AT | (o.userVerified === false ? 0 : FLAG_UV)]),
    counterBytes(auth.counter),
    Buffer.alloc(16), // AAGUID
    idLength,
    auth.credentialId,
    Buffer.from(isoCBOR.encode(cose)),
  ]);
  const attestationObject = isoCBOR.encode(
    new Map<string, unknown>([
      ['fmt', 'none'],
      ['attStmt', new Map()],
      ['authData', authData],
    ]) as never,
  );
  return credentialJson(auth, {
    clientDataJSON: b64url(clientData('webauthn.create', o.challenge, o.origin)),
    attestationObject: b64url(attestationObject),
    transports: ['internal' as const],
  });
}

/** The authentication response for `navigator.credentials.get()`; `userVerified: false` is a tap without PIN or biometric. */
export function assertion(auth: SoftAuthenticator, o: { challenge: string; origin: string; rpId: string; userVerified?: boolean }) {
  auth.counter += 1;
  const authData = Buffer.concat([
    sha256(o.rpId),
    Buffer.from([FLAG_UP | (o.userVerified === false ? 0 : FLAG_UV)]),
    counterBytes(auth.counter),
  ]);
  const data = clientData('webauthn.get', o.challenge, o.origin);
  const signature = sign('sha256', Buffer.concat([authData, sha256(data)]), auth.privateKey);
  return credentialJson(auth, { clientDataJSON: b64url(data), authenticatorData: b64url(authData), signature: b64url(signature) });
}
