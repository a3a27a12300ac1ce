// The pure parts of events and webhooks: the retry schedule (first retry within 10 s, doubling,
// at least 3 days), which addresses a production webhook may reach, the production URL rule, what
// an idempotent answer keeps of a secret, and the configuration block.
import { describe, expect, it } from 'vitest';
import { backoffMs, nextRetryAt } from '../../src/billing/webhooks/retry-schedule.ts';
import { withoutSecrets, scopeOf } from '../../src/billing/idempotency/idempotent-request.ts';
import { loadConfig } from '../../src/config.ts';
import { isPrivateAddress } from '../../src/webhooks/address-rules.ts';
import { createUrlPolicy } from '../../src/webhooks/url-policy.ts';
import { standardSigner } from '../../src/webhooks/standard-signer.ts';
import { Webhook } from 'standardwebhooks';

const defaults = loadConfig({}).webhooks;
const policy = { baseMs: defaults.retryBaseMs, maxDelayMs: defaults.retryMaxDelayMs, retryForMs: defaults.retryForMs };

describe('retry schedule (defaults)', () => {
  const opened = new Date('2030-01-01T00:00:00Z');

  it('first retry within 10 s at either end of the jitter, then doubling up to 6 h', () => {
    for (const random of [0, 0.5, 0.999]) {
      const at = nextRetryAt(policy, 1, opened, opened, random)!;
      expect(at.getTime() - opened.getTime()).toBeLessThanOrEqual(10_000);
      expect(at.getTime() - opened.getTime()).toBeGreaterThanOrEqual(3_000);
    }
    expect([1, 2, 3, 4, 5].map((n) => backoffMs(policy, n))).toEqual([5_000, 10_000, 20_000, 40_000, 80_000]);
    expect(backoffMs(policy, 40)).toBe(6 * 3_600_000);
  });

  it('keeps retrying for at least 3 days, then stops', () => {
    for (const random of [0, 1]) {
      let now = opened;
      let attempt = 1;
      for (;;) {
        const next = nextRetryAt(policy, attempt, opened, now, random);
        if (!next) break;
        now = next;
        attempt++;
      }
      // The last attempt is at most one maximum delay short of the window, and never past it.
      expect(now.getTime() - opened.getTime()).toBeGreaterThanOrEqual(3 * 86_400_000 - 6 * 3_600_000 * 1.25);
      expect(now.getTime() - opened.getTime()).toBeLessThanOrEqual(3 * 86_400_000);
      expect(attempt).toBeGreaterThan(15);
    }
  });
});

describe('production webhook targets', () => {
  it.each([
    '127.0.0.1',
    '127.8.8.8',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fc00::1',
    'fd12::1',
    'fe80::1',
    '::ffff:10.0.0.1',
    '::ffff:127.0.0.1',
    'not-an-ip',
  ])('%s is refused', (address) => expect(isPrivateAddress(address)).toBe(true));
  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])('%s is allowed', (address) =>
    expect(isPrivateAddress(address)).toBe(false),
  );

  it('production: https only, no loopback, private or localhost hosts (no DNS needed for these)', async () => {
    const prod = createUrlPolicy(true);
    expect(await prod.refuse('http://93.184.216.34/hook')).toBe('url must use https:// in production');
    for (const url of [
      'https://127.0.0.1/h',
      'https://10.0.0.5/h',
      'https://[::1]/h',
      'https://localhost/h',
      'https://api.localhost/h',
      'https://169.254.169.254/latest',
    ]) {
      expect(await prod.refuse(url), url).toMatch(/loopback, private or link-local/);
    }
    expect(await prod.refuse('https://93.184.216.34/hook')).toBeUndefined();
  });

  it('outside production, http and loopback are allowed (local receivers)', async () => {
    expect(await createUrlPolicy(false).refuse('http://127.0.0.1:4000/hook')).toBeUndefined();
  });
});

describe('signatures', () => {
  it('secrets are whsec_ + 32 random bytes; every secret signs; any Standard Webhooks verifier accepts either', () => {
    const a = standardSigner.newSecret();
    const b = standardSigner.newSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const body = '{"id":"e","type":"plan.created"}';
    const headers = standardSigner.headers({ id: 'evt', timestamp: new Date(), body, secrets: [a, b] });
    expect(headers['webhook-id']).toBe('evt');
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(a).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(b).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(standardSigner.newSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(a).verify(`${body} `, headers)).toThrow();
  });
});

describe('idempotent answers', () => {
  it('replay api_key and secret as null, byte for byte otherwise (exact amounts untouched)', () => {
    const body =
      '{"message":"Merchant created","merchant":{"id":"m"},"api_key":"bk_abc","amount":123456789012345678901234}';
    expect(withoutSecrets(body)).toBe(
      '{"message":"Merchant created","merchant":{"id":"m"},"api_key":null,"amount":123456789012345678901234}',
    );
    expect(withoutSecrets('{"webhook_endpoint":{},"secret":"whsec_x"}')).toBe('{"webhook_endpoint":{},"secret":null}');
    expect(withoutSecrets('{"error":"x"}')).toBe('{"error":"x"}');
    expect(withoutSecrets('not json')).toBe('not json');
  });

  it('scopes: a merchant key by its id, the operator, and every keyless request together', () => {
    expect(scopeOf({ kind: 'merchant', merchantId: 'm', keyId: 'k' })).toBe('key:k');
    expect(scopeOf({ kind: 'operator' })).toBe('operator');
    expect(scopeOf({ kind: 'anonymous' })).toBe('anonymous');
  });
});

describe('configuration', () => {
  it('defaults: 10 s timeout, 5 s first retry, 6 h cap, 3 days, disabled after 5 days; production only reaches public https', () => {
    expect(defaults).toEqual({
      timeoutMs: 10_000,
      retryBaseMs: 5_000,
      retryMaxDelayMs: 21_600_000,
      retryForMs: 259_200_000,
      disableAfterMs: 432_000_000,
      pollIntervalMs: 1_000,
      concurrency: 16,
      publicTargetsOnly: false,
    });
    expect(loadConfig({ NODE_ENV: 'production' }).webhooks.publicTargetsOnly).toBe(true);
  });

  it('refuses a first retry that could not come within 10 s, and names every bad variable', () => {
    expect(() => loadConfig({ WEBHOOK_RETRY_BASE_MS: '9000', WEBHOOK_TIMEOUT_MS: '0' })).toThrow(
      /WEBHOOK_TIMEOUT_MS[\s\S]*WEBHOOK_RETRY_BASE_MS|WEBHOOK_RETRY_BASE_MS[\s\S]*WEBHOOK_TIMEOUT_MS/,
    );
  });
});
