// Typed API calls: the service's own OpenAPI document, built from its routes without a database
// or a server (as service/test/http/openapi.test.ts does), turned into TypeScript types by
// openapi-typescript; src/api/client.ts gives them to openapi-fetch. Run by `npm run build`, so
// the front end cannot call a route or read a field the service does not document.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../../service/src/app.ts';
import { loadConfig } from '../../service/src/config.ts';
import { buildDeps, closeDeps } from '../../service/src/deps.ts';

const deps = await buildDeps(loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'silent' }));
const app = buildApp(deps);
await app.ready();
const res = await app.inject({ method: 'GET', url: '/openapi.json' });
await app.close();
await closeDeps(deps);
if (res.statusCode !== 200) throw new Error(`GET /openapi.json answered ${res.statusCode}`);

const doc = join(mkdtempSync(join(tmpdir(), 'billing-openapi-')), 'openapi.json');
writeFileSync(doc, res.body);
const out = fileURLToPath(new URL('../src/api/schema.d.ts', import.meta.url));
const cli = fileURLToPath(new URL('../node_modules/.bin/openapi-typescript', import.meta.url));
execFileSync(cli, [doc, '-o', out], { stdio: 'inherit' });
