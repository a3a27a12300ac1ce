// Writes the service's OpenAPI document to the file named on the command line, built from its routes
// without a database or a server (as test/http/openapi.test.ts reads it). The web workspace's build
// runs this to type its API calls, so it never imports the service's source.
import { writeFileSync } from 'node:fs';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { buildDeps, closeDeps } from '../src/deps.ts';

const out = process.argv[2];
if (!out) throw new Error('usage: node scripts/openapi.ts <output file>');
const deps = await buildDeps(loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'silent' }));
const app = buildApp(deps);
await app.ready();
const res = await app.inject({ method: 'GET', url: '/openapi.json' });
await app.close();
await closeDeps(deps);
if (res.statusCode !== 200) throw new Error(`GET /openapi.json answered ${res.statusCode}`);
writeFileSync(out, res.body);
