// Errors outside the spec's tables still come as `{ "error": "..." }` and nothing else: unknown
// route, malformed JSON, body over the limit, wrong content type, broken URL (product.md).
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp } from '../support/app.ts';
import type { TestApp } from '../support/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp('pglite', { env: { BODY_LIMIT_BYTES: '2048' } });
});
afterAll(() => t.close());

async function send(opts: InjectOptions) {
  const res = await t.app.inject(opts);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json();
  expect(Object.keys(body)).toEqual(['error']);
  expect(typeof body.error).toBe('string');
  return { status: res.statusCode, error: body.error as string };
}

describe('error shapes', () => {
  it('unknown route: 404, method and path named, query string left out', async () => {
    expect(await send({ method: 'GET', url: '/nowhere?merchant_secret=x' })).toEqual({
      status: 404,
      error: 'Route GET /nowhere not found',
    });
    expect(await send({ method: 'PUT', url: '/plans' })).toEqual({ status: 404, error: 'Route PUT /plans not found' });
  });

  it('malformed JSON: 400', async () => {
    const res = await send({
      method: 'POST',
      url: '/plans',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(res).toEqual({ status: 400, error: "Body is not valid JSON but content-type is set to 'application/json'" });
  });

  it('empty body with a JSON content type: 400', async () => {
    const res = await send({
      method: 'POST',
      url: '/merchants',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(res.status).toBe(400);
  });

  it('a JSON value that is not an object: 400 naming the body', async () => {
    const res = await send({ method: 'POST', url: '/subscriptions', payload: [1, 2] });
    expect(res).toEqual({
      status: 400,
      error: 'Invalid input on body: Invalid input: expected object, received array',
    });
  });

  it('no body at all: 400 naming the first missing field', async () => {
    const res = await send({ method: 'POST', url: '/subscriptions' });
    expect(res).toEqual({
      status: 400,
      error: 'Invalid input on plan_id: Invalid input: expected string, received undefined',
    });
  });

  it('body over BODY_LIMIT_BYTES: 413', async () => {
    const res = await send({
      method: 'POST',
      url: '/merchants',
      payload: { name: 'x'.repeat(4096), wallet_address: 'G' },
    });
    expect(res).toEqual({ status: 413, error: 'Request body is too large' });
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/xml'])(
    'content type %s: 415',
    async (type) => {
      const res = await send({ method: 'POST', url: '/plans', headers: { 'content-type': type }, payload: 'name=x' });
      expect(res).toEqual({ status: 415, error: 'Unsupported Media Type: send Content-Type: application/json' });
    },
  );

  it('JSON with a charset parameter is accepted', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/merchants',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      payload: JSON.stringify({ name: '' }),
    });
    expect(res.json()).toEqual({ error: 'Invalid input on name: name cannot be empty' });
  });

  it('broken percent-encoding in the URL: 400', async () => {
    const res = await send({ method: 'GET', url: '/plans/%E0%A4%A' });
    expect(res.status).toBe(400);
  });

  it('prototype poisoning in JSON: 400', async () => {
    const res = await send({
      method: 'POST',
      url: '/merchants',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":"a","__proto__":{"x":1}}',
    });
    expect(res.status).toBe(400);
  });
});
