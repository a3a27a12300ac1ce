// The hosted pages (product.md, "checkout"): /checkout/{plan_id}, /dashboard and /manage, and
// their assets, served from the front end built at install (web/dist, `npm run build -w web`).
// Outside the API's scope like /docs: no key to load a page, none of the API's hooks. Each page
// is the same index.html with the network the service uses written into it, so the subscriber's
// browser builds transactions for the very RPC, passphrase and vault contract the service checks.
// Start-up never builds: without web/dist the pages answer 503 saying how to build them.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';

export const WEB_DIST = fileURLToPath(new URL('../../../web/dist', import.meta.url));
const PAGES = ['/checkout/:plan_id', '/dashboard', '/manage'];

export interface PageConfig {
  rpc_url: string;
  network_passphrase: string;
  vault_contract_id: string | null;
  local_wallet: boolean;
}

export function pageConfigOf(config: Config): PageConfig {
  return {
    rpc_url: config.sorobanRpcUrl,
    network_passphrase: config.networkPassphrase,
    vault_contract_id: config.contractId ?? null,
    // The local test wallet signs with a throwaway account of the local network: never in production.
    local_wallet: config.nodeEnv !== 'production',
  };
}

/** index.html with the configuration as inert JSON (`<` escaped, so no text can close the script). */
export function pageHtml(index: string, cfg: PageConfig): string {
  const json = JSON.stringify(cfg).replaceAll('<', '\\u003c');
  return index.replace('</head>', `<script id="billing-config" type="application/json">${json}</script></head>`);
}

/**
 * Only this service's own files run; the browser may talk to the service and to the Soroban RPC
 * (and, for the local test wallet, its control API on the same origin); no page may frame these
 * (a checkout under someone else's frame could be clickjacked into signing).
 */
export function contentSecurityPolicy(cfg: PageConfig): string {
  const rpc = new URL(cfg.rpc_url).origin;
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src 'self' ${rpc}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
}

export function registerWebPages(app: FastifyInstance, config: Config, dist = WEB_DIST): void {
  const indexFile = `${dist}/index.html`;
  const built = existsSync(indexFile);
  let html: string | undefined;
  const csp = contentSecurityPolicy(pageConfigOf(config));
  const page = () => (html ??= pageHtml(readFileSync(indexFile, 'utf8'), pageConfigOf(config)));
  for (const url of PAGES) {
    app.get(url, { schema: { hide: true } }, async (_request, reply) => {
      if (!built)
        return reply
          .code(503)
          .type('text/plain; charset=utf-8')
          .send('The pages are not built: run `npm run build -w web` (npm ci does it).');
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', csp)
        .send(page());
    });
  }
  if (built) {
    // Hashed file names: cached for good.
    app.register(fastifyStatic, {
      root: `${dist}/assets`,
      prefix: '/assets/',
      decorateReply: false,
      immutable: true,
      maxAge: '365d',
      schemaHide: true,
    });
  }
}
