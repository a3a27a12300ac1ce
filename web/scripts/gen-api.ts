// Typed API calls: the service's own OpenAPI document (written by service/scripts/openapi.ts from
// its routes, without a database or a server), turned into TypeScript types by openapi-typescript;
// src/api/client.ts gives them to openapi-fetch. Run by `npm run build`, so the front end cannot
// call a route or read a field the service does not document. The service runs as its own program:
// this workspace imports none of its source.
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const doc = join(mkdtempSync(join(tmpdir(), 'billing-openapi-')), 'openapi.json');
const service = fileURLToPath(new URL('../../service/', import.meta.url));
execFileSync(process.execPath, [join(service, 'scripts/openapi.ts'), doc], { cwd: service, stdio: 'inherit' });
const out = fileURLToPath(new URL('../src/api/schema.d.ts', import.meta.url));
const cli = fileURLToPath(new URL('../node_modules/.bin/openapi-typescript', import.meta.url));
execFileSync(cli, [doc, '-o', out], { stdio: 'inherit' });
