// Optional rate limit (429 in the error shape, probes exempt) and CORS by CORS_ORIGINS; both off
// by default. No database work involved: the app runs without one (NODE_ENV=production).
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { startApp } from '../support/app.ts';

const noDb = { NODE_ENV: 'production' };

describe('rate limit', () => {
  it('is off by default', async () => {
    const t = await startApp(null, { env: noDb });
    try {
      for (let i = 0; i < 30; i++) {
        const res = await t.app.inject({ method: 'GET', url: '/plans/not-a-uuid' });
        expect(res.statusCode).toBe(400);
        expect(res.headers['x-ratelimit-limit']).toBeUndefined();
      }
    } finally {
      await t.close();
    }
  });

  it('answers 429 {"error": …} past RATE_LIMIT_MAX per window, and never throttles the probes', async () => {
    const t = await startApp(null, { env: { ...noDb, RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_MS: '60000' } });
    try {
      const statuses = [];
      for (let i = 0; i < 4; i++)
        statuses.push((await t.app.inject({ method: 'GET', url: '/plans/not-a-uuid' })).statusCode);
      expect(statuses).toEqual([400, 400, 400, 429]);
      const limited = await t.app.inject({ method: 'GET', url: '/merchants/x' });
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual({ error: 'Rate limit exceeded, retry in 1 minute' });
      expect(limited.headers['retry-after']).toBe('60');
      // Another client has its own budget.
      expect((await t.app.inject({ method: 'GET', url: '/plans/x', remoteAddress: '10.0.0.2' })).statusCode).toBe(400);
      for (const url of ['/health', '/ready', '/metrics']) {
        expect((await t.app.inject({ method: 'GET', url })).statusCode, url).not.toBe(429);
      }
    } finally {
      await t.close();
    }
  });
});

describe('CORS', () => {
  it('sends no CORS headers when CORS_ORIGINS is unset', async () => {
    const t = await startApp(null, { env: noDb });
    try {
      const res = await t.app.inject({
        method: 'GET',
        url: '/health',
        headers: { origin: 'https://shop.example.com' },
      });
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await t.close();
    }
  });

  it('allows the listed origins only, preflight included', async () => {
    const t = await startApp(null, {
      env: { ...noDb, CORS_ORIGINS: 'https://shop.example.com, https://checkout.example.com' },
    });
    try {
      const ok = await t.app.inject({
        method: 'GET',
        url: '/health',
        headers: { origin: 'https://checkout.example.com' },
      });
      expect(ok.headers['access-control-allow-origin']).toBe('https://checkout.example.com');
      expect(ok.headers['access-control-expose-headers']).toBe('x-request-id');
      const other = await t.app.inject({
        method: 'GET',
        url: '/health',
        headers: { origin: 'https://evil.example.net' },
      });
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
      const preflight = await t.app.inject({
        method: 'OPTIONS',
        url: '/subscriptions',
        headers: {
          origin: 'https://shop.example.com',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
      expect(preflight.statusCode).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBe('https://shop.example.com');
      expect(preflight.headers['access-control-allow-methods']).toContain('POST');
    } finally {
      await t.close();
    }
  });

  it('rejects a malformed CORS_ORIGINS or RATE_LIMIT_MAX at start-up', () => {
    expect(() => loadConfig({ CORS_ORIGINS: 'shop.example.com' })).toThrow(/CORS_ORIGINS: must be \* or origins/);
    expect(() => loadConfig({ RATE_LIMIT_MAX: '0' })).toThrow(/RATE_LIMIT_MAX/);
    expect(loadConfig({ CORS_ORIGINS: '*' }).corsOrigins).toEqual(['*']);
    expect(loadConfig({}).rateLimit).toBeUndefined();
  });
});
