// GET /openapi.json: a valid OpenAPI 3.1 document (checked with @scalar/openapi-parser, which the
// docs page itself uses) that lists every route Fastify registered, with its methods, request
// bodies, parameters, every answer's status and examples that match the response schemas.
import { validate } from '@scalar/openapi-parser';
import { Ajv } from 'ajv';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { buildDeps, closeDeps } from '../../src/deps.ts';
import type { Deps } from '../../src/deps.ts';
import { operationKey } from '../../src/http/openapi/openapi.ts';

type Operation = {
  summary?: string;
  parameters?: Array<{ in: string; name: string }>;
  requestBody?: { content: Record<string, { schema: object; example?: unknown; examples?: unknown }> };
  responses: Record<
    string,
    {
      description: string;
      content?: Record<string, { schema: object; example?: unknown; examples?: Record<string, { value: unknown }> }>;
    }
  >;
};
type Document = {
  openapi: string;
  info: { title: string };
  paths: Record<string, Record<string, Operation & { security?: Record<string, string[]>[] }>>;
  components: { securitySchemes: Record<string, { type: string; scheme: string }> };
};

describe('GET /openapi.json', () => {
  let app: FastifyInstance;
  let deps: Deps;
  let doc: Document;
  // Every route as Fastify registered it, collected the way @fastify/swagger collects them.
  const routes: Array<{ method: string; url: string; hidden: boolean }> = [];

  beforeAll(async () => {
    // No database needed: the document is built from the routes alone.
    deps = await buildDeps(loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'silent' }));
    app = buildApp(deps);
    app.addHook('onRoute', (r) => {
      for (const method of [r.method].flat())
        routes.push({ method, url: r.url, hidden: Boolean((r.schema as { hide?: boolean } | undefined)?.hide) });
    });
    await app.ready();
    const res = await app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    doc = res.json();
  });
  afterAll(async () => {
    await app.close();
    await closeDeps(deps);
  });

  it('is OpenAPI 3.1 and passes the OpenAPI 3.1 schema', async () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    const result = await validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('lists every registered route with its methods, and nothing else', () => {
    const expected = routes
      .filter((r) => !r.hidden && r.method !== 'HEAD')
      .map((r) => operationKey(r.method, r.url))
      .sort();
    const documented = Object.entries(doc.paths)
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
      .sort();
    expect(expected.length).toBeGreaterThanOrEqual(13);
    expect(documented).toEqual(expected);
  });

  it('documents bodies, path parameters, summaries and error answers of every operation', () => {
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const where = `${method} ${path}`;
        expect(op.summary, where).toBeTruthy();
        for (const name of path.match(/\{(\w+)\}/g) ?? []) {
          expect(
            op.parameters?.some((p) => p.in === 'path' && `{${p.name}}` === name),
            `${where} ${name}`,
          ).toBe(true);
        }
        if (method === 'post') {
          const media = op.requestBody?.content['application/json'];
          expect(media?.schema, where).toBeTruthy();
          expect(media?.example ?? media?.examples, `${where} request example`).toBeTruthy();
          expect(Object.keys(op.responses), where).toEqual(expect.arrayContaining(['400', '413', '415', '500']));
        }
        if (path.includes('{id}'))
          expect(Object.keys(op.responses), where).toEqual(expect.arrayContaining(['400', '404']));
      }
    }
  });

  it('has an example for every answer, and each example matches its response schema', () => {
    const ajv = new Ajv({ strict: false, validateFormats: false });
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        for (const [status, response] of Object.entries(op.responses)) {
          const media = Object.values(response.content ?? {})[0];
          const where = `${method} ${path} ${status}`;
          expect(response.description, where).toBeTruthy();
          expect(media, where).toBeTruthy();
          const examples = media!.examples ? Object.values(media!.examples).map((e) => e.value) : [media!.example];
          expect(examples.length, where).toBeGreaterThan(0);
          const check = ajv.compile(media!.schema);
          for (const example of examples)
            expect(check(example), `${where}: ${JSON.stringify(check.errors)}`).toBe(true);
        }
      }
    }
  });

  it('describes query parameters of the listings from their Zod schemas', () => {
    const params = doc.paths['/merchants/{id}/subscriptions'].get
      .parameters!.filter((p) => p.in === 'query')
      .map((p) => p.name);
    expect(params.sort()).toEqual(['cursor', 'due_before', 'limit', 'plan_id', 'status']);
  });

  it('serves the docs page and its script from the package, no CDN', async () => {
    const page = await app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('/openapi.json');
    expect(page.body).not.toMatch(/https?:\/\/(cdn|unpkg|fonts)\./);
    const script = await app.inject({ method: 'GET', url: '/docs/js/scalar.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toMatch(/javascript/);
    expect((await app.inject({ method: 'GET', url: '/docs' })).statusCode).toBe(301);
  });
  it('declares the two key schemes and, per route, which key it takes and its 401 / 403 answers', () => {
    expect(doc.components.securitySchemes).toEqual({
      merchantKey: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      operatorKey: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    });
    const op = (path: string, method: string) => doc.paths[path][method];
    // Open mode (this document): most routes also work without a key ({}), credential routes never.
    expect(op('/plans/{id}', 'get').security).toEqual([{}, { merchantKey: [] }, { operatorKey: [] }]);
    expect(op('/merchants', 'post').security).toEqual([{}, { operatorKey: [] }]);
    expect(op('/merchants/{id}/api-keys', 'post').security).toEqual([{ merchantKey: [] }, { operatorKey: [] }]);
    expect(op('/health', 'get').security).toEqual([]);
    expect(Object.keys(op('/merchants/{id}/api-keys', 'get').responses)).toEqual(expect.arrayContaining(['401']));
    expect(Object.keys(op('/merchants', 'post').responses)).toEqual(expect.arrayContaining(['401', '403']));
    expect(Object.keys(op('/health', 'get').responses)).not.toContain('401');
    // Exact amounts are numbers in the document, whatever the serializer sees.
    const plan = op('/plans/{id}', 'get').responses['200'].content!['application/json'].schema as {
      properties: { plan: { properties: Record<string, { type?: string }> } };
    };
    expect(plan.properties.plan.properties.token_amount.type).toBe('number');
  });

  it('in keys mode, the document says a key is needed', async () => {
    const keys = await buildDeps(loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'silent', AUTH_MODE: 'keys' }));
    const keysApp = buildApp(keys);
    try {
      const keyed = (await keysApp.inject({ method: 'GET', url: '/openapi.json' })).json() as Document;
      expect(keyed.paths['/subscriptions/{id}'].get.security).toEqual([{ merchantKey: [] }, { operatorKey: [] }]);
      expect(keyed.paths['/plans/{id}'].get.security).toEqual([{}, { merchantKey: [] }, { operatorKey: [] }]);
      expect(Object.keys(keyed.paths['/subscriptions/{id}'].get.responses)).toEqual(expect.arrayContaining(['401']));
      expect((await validate(keyed as never)).valid).toBe(true);
    } finally {
      await keysApp.close();
      await closeDeps(keys);
    }
  });
});
