// The pieces of merchant accounts that need no database: the access rules, key material, the key
// cache's window, the secret box (AES-256-GCM, bound context, rotation ids), the cursor codec and
// the metrics throttle.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { authorize, keyRequired } from '../../src/billing/access/authorize.ts';
import { createKeyCache, KEY_CACHE_TTL_MS } from '../../src/billing/access/key-cache.ts';
import { hashKey, newKeyMaterial } from '../../src/billing/access/key-material.ts';
import { ANONYMOUS, OPERATOR } from '../../src/billing/context.ts';
import { createCursorCodec } from '../../src/schemas/cursors.ts';
import { throttled } from '../../src/metrics.ts';
import { createSecretBox } from '../../src/secrets/aes-gcm-box.ts';

const merchant = { kind: 'merchant' as const, merchantId: 'm1', keyId: 'k1' };

describe('access rules (product.md)', () => {
  it('which routes need a key', () => {
    expect(keyRequired('public', 'keys')).toBe(false);
    expect(keyRequired('merchant', 'open')).toBe(false);
    expect(keyRequired('merchant', 'keys')).toBe(true);
    expect(keyRequired('operator', 'open')).toBe(false);
    expect(keyRequired('credential', 'open')).toBe(true);
    expect(keyRequired('operator-key', 'open')).toBe(true);
  });

  it('401 without a key where one is needed, 403 for a merchant key on operator routes', () => {
    expect(() => authorize(ANONYMOUS, 'merchant', 'keys')).toThrow(
      expect.objectContaining({ code: 'API_KEY_REQUIRED' }),
    );
    expect(() => authorize(merchant, 'operator', 'open')).toThrow(expect.objectContaining({ code: 'OPERATOR_ONLY' }));
    expect(() => authorize(merchant, 'credential', 'keys')).not.toThrow();
    expect(() => authorize(OPERATOR, 'operator-key', 'keys')).not.toThrow();
    expect(() => authorize(ANONYMOUS, 'operator', 'open')).not.toThrow();
  });
});

describe('key material', () => {
  it('256 random bits, a recognisable prefix, stored as SHA-256 only', () => {
    const a = newKeyMaterial();
    const b = newKeyMaterial();
    expect(a.secret).toMatch(/^bk_[A-Za-z0-9_-]{43}$/);
    expect(a.secret).not.toBe(b.secret);
    expect(a.hash).toBe(hashKey(a.secret).toString('hex'));
    expect(a.prefix).toBe(a.secret.slice(0, 11));
    expect(a.hash).not.toContain(a.secret.slice(3));
  });
});

describe('key cache', () => {
  it('keeps a valid key for its TTL, forgets by key and by merchant at once', () => {
    let now = 0;
    const cache = createKeyCache(() => now);
    cache.set('h1', { id: 'k1', merchant_id: 'm1' });
    cache.set('h2', { id: 'k2', merchant_id: 'm2' });
    cache.set('h3', { id: 'k3', merchant_id: 'm2' });
    expect(cache.get('h1')?.id).toBe('k1');
    cache.forgetKey('k1');
    expect(cache.get('h1')).toBeUndefined();
    cache.forgetMerchant('m2');
    expect(cache.get('h2')).toBeUndefined();
    cache.set('h4', { id: 'k4', merchant_id: 'm4' });
    now = KEY_CACHE_TTL_MS - 1;
    expect(cache.get('h4')).toBeDefined();
    now = KEY_CACHE_TTL_MS;
    expect(cache.get('h4')).toBeUndefined();
  });
});

describe('secret box (AES-256-GCM)', () => {
  const k1 = { id: 'k1', key: randomBytes(32) };
  const k2 = { id: 'k2', key: randomBytes(32) };

  it('seals under the first key, opens under any listed one, only in its own context', () => {
    const sealed = createSecretBox([k1]).seal('S-secret', 'ctx-a');
    expect(sealed.kekId).toBe('k1');
    expect(Buffer.from(sealed.ciphertext, 'base64').includes(Buffer.from('S-secret'))).toBe(false);
    const rotated = createSecretBox([k2, k1]);
    expect(rotated.open(sealed, 'ctx-a')).toBe('S-secret');
    expect(rotated.seal('x', 'c').kekId).toBe('k2');
    expect(() => rotated.open(sealed, 'ctx-b')).toThrow(/does not open/);
    expect(() => createSecretBox([k2]).open(sealed, 'ctx-a')).toThrow(
      /"k1", which SIGNING_KEY_ENCRYPTION_KEY does not list/,
    );
    expect(() => createSecretBox([{ id: 'k1', key: randomBytes(32) }]).open(sealed, 'ctx-a')).toThrow(/does not open/);
    const tampered = Buffer.from(sealed.ciphertext, 'base64');
    tampered[tampered.length - 1] ^= 1;
    expect(() => rotated.open({ ...sealed, ciphertext: tampered.toString('base64') }, 'ctx-a')).toThrow();
  });

  it('without keys it refuses both ways', () => {
    const box = createSecretBox(undefined);
    expect(box.primaryKekId).toBeUndefined();
    expect(() => box.seal('x', 'c')).toThrow(expect.objectContaining({ code: 'SIGNING_KEY_STORE' }));
    expect(() => box.open({ kekId: 'k1', ciphertext: 'AA==' }, 'c')).toThrow(
      expect.objectContaining({ code: 'SIGNING_KEY_STORE' }),
    );
  });
});

describe('cursor codec', () => {
  const key = { at: '2030-01-01T00:00:00.000000Z', id: '49518b77-7b5e-4f9b-8fda-ecd6c06606a4' };

  it('round-trips its own cursors, for the order they were cut from only', () => {
    const codec = createCursorCodec('s'.repeat(32));
    const cursor = codec.encode('created', key);
    expect(codec.decode(cursor, 'created')).toEqual(key);
    expect(codec.decode(cursor, 'due')).toBeUndefined();
  });

  it("replicas sharing CURSOR_SECRET read each other's cursors; other secrets do not", () => {
    const cursor = createCursorCodec('s'.repeat(32)).encode('due', key);
    expect(createCursorCodec('s'.repeat(32)).decode(cursor, 'due')).toEqual(key);
    expect(createCursorCodec('t'.repeat(32)).decode(cursor, 'due')).toBeUndefined();
    // Unset: a random secret per process.
    expect(createCursorCodec(undefined).decode(createCursorCodec(undefined).encode('due', key), 'due')).toBeUndefined();
  });
});

describe('metrics throttle', () => {
  it('reads at most once per interval, shares a read in flight, keeps the last value on failure', async () => {
    let now = 0;
    let reads = 0;
    let fail = false;
    const read = async () => {
      reads++;
      if (fail) throw new Error('down');
      return reads;
    };
    const value = throttled(read, 15_000, () => now);
    expect(await Promise.all([value(), value(), value()])).toEqual([1, 1, 1]);
    now = 14_999;
    expect(await value()).toBe(1);
    expect(reads).toBe(1);
    now = 15_000;
    expect(await value()).toBe(2);
    fail = true;
    now = 40_000;
    expect(await value()).toBe(2);
  });
});
