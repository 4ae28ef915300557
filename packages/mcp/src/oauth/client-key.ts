import { createPrivateKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** The JWS algorithms a `private_key_jwt` assertion may be signed with (asymmetric only: `client_secret_jwt`, HMAC, is not offered). */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'] as const;
export type ClientKeyAlgorithm = (typeof ALGORITHMS)[number];

/** The curve each ECDSA algorithm signs with (RFC 7518 section 3.4). */
const CURVE_OF: Readonly<Record<string, string>> = { ES256: 'P-256', ES384: 'P-384', ES512: 'P-521' };

/**
 * A client's private key for `private_key_jwt` (RFC 7523 section 2.2), checked when the options are
 * read. The key itself is in a private field: printing, inspecting or serializing this object
 * shows the algorithm only, so the key cannot reach a log or the token file by accident.
 */
export class ClientKey {
  readonly algorithm: ClientKeyAlgorithm;
  readonly #jwk: JsonWebKey;

  private constructor(jwk: JsonWebKey, algorithm: ClientKeyAlgorithm) {
    this.#jwk = jwk;
    this.algorithm = algorithm;
  }

  /** The private key as a JWK, for the SDK's assertion signer (which takes any key type this way, PKCS#1 and SEC1 PEM included). */
  jwk(): Record<string, unknown> {
    return { ...this.#jwk };
  }

  toJSON(): { algorithm: ClientKeyAlgorithm } {
    return { algorithm: this.algorithm };
  }

  /**
   * `key`: PEM text (PKCS#8, PKCS#1 RSA or SEC1 EC) or a JWK object, or, with `fromFile`, the path of a
   * file holding either. `algorithm`: the JWS `alg`; default the one the key implies (RS256 for RSA,
   * ES256/384/512 for P-256/384/521, EdDSA for Ed25519). Throws a one-line `TypeError` starting
   * with `option` (which never quotes the key).
   */
  static of(key: unknown, fromFile: boolean, algorithm: unknown, option: string, where: string): ClientKey {
    if (algorithm !== undefined && !(ALGORITHMS as readonly unknown[]).includes(algorithm)) {
      throw new TypeError(`${where}: oauth.algorithm must be one of ${ALGORITHMS.join(', ')}, got ${JSON.stringify(algorithm)}.`);
    }
    let material: unknown = key;
    if (fromFile) {
      if (typeof key !== 'string' || key === '') throw new TypeError(`${where}: ${option} must be the path of a file holding a PEM or JWK private key.`);
      try {
        material = readFileSync(key, 'utf8');
      } catch (error) {
        throw new TypeError(`${where}: ${option} ${JSON.stringify(key)} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
      }
      if (typeof material === 'string' && material.trimStart().startsWith('{')) material = parseJwk(material, option, where);
    }
    const object = keyObjectOf(material, option, where);
    const chosen = (algorithm as ClientKeyAlgorithm | undefined) ?? defaultAlgorithm(object, option, where);
    const fits = algorithmFits(object, chosen);
    if (fits !== undefined) throw new TypeError(`${where}: oauth.algorithm ${chosen} does not fit ${option}: ${fits}.`);
    return new ClientKey(object.export({ format: 'jwk' }), chosen);
  }
}

function parseJwk(text: string, option: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new TypeError(`${where}: ${option} holds neither a PEM private key nor a JWK (its JSON does not parse).`);
  }
}

function keyObjectOf(material: unknown, option: string, where: string): KeyObject {
  const notAKey = `${where}: ${option} is not a private key (expected PEM text, PKCS#8, PKCS#1 or SEC1, or a JWK with its private part "d")`;
  try {
    if (typeof material === 'string' && material.includes('-----BEGIN')) return createPrivateKey({ key: material, format: 'pem' });
    if (typeof material === 'object' && material !== null && !Array.isArray(material)) return createPrivateKey({ key: material as JsonWebKey, format: 'jwk' });
  } catch {
    // node's message names the decoder, not the key; the option is what the person needs to see.
    throw new TypeError(`${notAKey}.`);
  }
  throw new TypeError(`${notAKey}${typeof material === 'string' ? '; a path goes in oauth.privateKeyFile' : ''}.`);
}

function defaultAlgorithm(key: KeyObject, option: string, where: string): ClientKeyAlgorithm {
  const type = key.asymmetricKeyType;
  if (type === 'rsa') return 'RS256';
  if (type === 'ed25519') return 'EdDSA';
  if (type === 'ec') {
    const curve = key.export({ format: 'jwk' }).crv;
    const algorithm = Object.entries(CURVE_OF).find(([, named]) => named === curve)?.[0];
    if (algorithm !== undefined) return algorithm as ClientKeyAlgorithm;
  }
  throw new TypeError(`${where}: ${option} is a ${type ?? 'unknown'} key${type === 'ec' ? ' on a curve JWS does not sign with' : ''}; expected RSA, EC P-256/384/521 or Ed25519.`);
}

/** Why `algorithm` cannot sign with `key`, or `undefined` when it can. */
function algorithmFits(key: KeyObject, algorithm: ClientKeyAlgorithm): string | undefined {
  const type = key.asymmetricKeyType;
  if (algorithm.startsWith('RS') || algorithm.startsWith('PS')) return type === 'rsa' ? undefined : `it needs an RSA key, the key is ${type}`;
  if (algorithm === 'EdDSA') return type === 'ed25519' ? undefined : `it needs an Ed25519 key, the key is ${type}`;
  if (type !== 'ec') return `it needs an EC key, the key is ${type}`;
  const curve = key.export({ format: 'jwk' }).crv;
  return curve === CURVE_OF[algorithm] ? undefined : `it needs the curve ${CURVE_OF[algorithm]}, the key is on ${curve}`;
}
