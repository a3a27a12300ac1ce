// Headless Chromium (Debian's package; .ci/run installs it) for the pages' tests: a page that may
// reach only loopback (the service and the local network), screenshots kept under
// service/test-results/screenshots/ (docs/screenshots/ for the README with UPDATE_SCREENSHOTS=1), and an axe-core check that fails on serious violations.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { type Keypair, TransactionBuilder } from '@stellar/stellar-sdk';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect } from 'vitest';

export const CHROMIUM = '/usr/bin/chromium';
export const HAS_CHROMIUM = existsSync(CHROMIUM);
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
// Every run saves its screenshots; only UPDATE_SCREENSHOTS=1 replaces the README's committed ones,
// so a test run leaves the tree clean.
export const SCREENSHOTS = fileURLToPath(
  new URL(
    process.env.UPDATE_SCREENSHOTS === '1' ? '../../../docs/screenshots/' : '../../test-results/screenshots/',
    import.meta.url,
  ),
);
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Chromium, once the front end is built (npm ci builds it; `npm run build -w web` after a change). */
export function launch(): Promise<Browser> {
  const index = fileURLToPath(new URL('../../../web/dist/index.html', import.meta.url));
  if (!existsSync(index)) throw new Error(`${index} is missing: run npm run build -w web`);
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}

/** A page limited to loopback; what it tried to reach elsewhere is in `outside`. */
export async function openPage(browser: Browser, size: 'desktop' | 'phone' = 'desktop') {
  const viewport = size === 'phone' ? { width: 390, height: 844 } : { width: 1280, height: 900 };
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const outside: string[] = [];
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  // A request or script the page's Content-Security-Policy refused is an error of the page.
  page.on('console', (msg) => {
    if (msg.type() === 'error' && /Content Security Policy/i.test(msg.text())) errors.push(msg.text());
  });
  await page.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === '127.0.0.1' || url.protocol === 'data:') return route.continue();
    outside.push(url.href);
    return route.abort();
  });
  return { page, outside, errors };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = `${SCREENSHOTS}${name}.png`;
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** axe-core on the page as it is now: no serious or critical violation. */
export async function expectAccessible(page: Page, what: string) {
  // Evaluated by the browser's debugger, not added as a <script>: the pages' CSP allows only their own.
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: unknown[] }> } }).axe;
    const result = await axe.run();
    return (result.violations as { id: string; impact: string; help: string; nodes: { target: string[] }[] }[])
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
  expect(violations, `${what}: axe-core`).toEqual([]);
}

/**
 * A stand-in for the Freighter extension, installed before the page loads: it answers
 * @stellar/freighter-api's window messages as the extension's content script does. `network` is
 * the passphrase it reports; `refuse` makes it decline every signature, as a user would.
 */
export function fakeFreighter(o: { address: string; network: string; refuse?: boolean; sign?: boolean }) {
  return ({ address, network, refuse, sign }: typeof o) => {
    // Runs in the page (this package's types have no DOM).
    const window = globalThis as unknown as {
      freighter: boolean;
      location: { origin: string };
      postMessage(message: unknown, origin: string): void;
      addEventListener(type: 'message', fn: (event: { data: unknown }) => void): void;
      /** Exposed by withFreighter: the test's key signs in Node. */
      __freighterSign(xdr: string): Promise<string>;
      __freighterSignBlob(message: string): Promise<string>;
    };
    window.freighter = true;
    window.addEventListener('message', (event) => {
      const d = event.data as {
        source?: string;
        messageId?: number;
        type?: string;
        transactionXdr?: string;
        blob?: string;
      };
      if (d?.source !== 'FREIGHTER_EXTERNAL_MSG_REQUEST') return;
      const reply = (payload: object) =>
        window.postMessage(
          { source: 'FREIGHTER_EXTERNAL_MSG_RESPONSE', messagedId: d.messageId, ...payload },
          window.location.origin,
        );
      switch (d.type) {
        case 'REQUEST_ACCESS':
        case 'REQUEST_PUBLIC_KEY':
          return reply({ publicKey: address });
        case 'REQUEST_ALLOWED_STATUS':
          return reply({ isAllowed: true });
        case 'REQUEST_NETWORK_DETAILS':
          return reply({
            networkDetails: { network: 'CUSTOM', networkName: 'custom', networkUrl: '', networkPassphrase: network },
          });
        case 'SUBMIT_TRANSACTION':
          if (sign && !refuse)
            return void window
              .__freighterSign(d.transactionXdr!)
              .then((signed) => reply({ signedTransaction: signed, signerAddress: address }));
          return reply(
            refuse
              ? {
                  signedTransaction: '',
                  signerAddress: '',
                  apiError: { code: -4, message: 'The user rejected this request.' },
                }
              : { apiError: { code: -1, message: 'the stand-in holds no key' } },
          );
        case 'SUBMIT_BLOB':
          return void window
            .__freighterSignBlob(d.blob!)
            .then((signed) => reply({ signedBlob: signed, signerAddress: address }));
      }
    });
  };
}

/** The Freighter stand-in holding `kp`: it signs transactions and SEP-53 messages as the extension would. */
export async function withFreighter(page: Page, kp: Keypair, passphrase: string) {
  await page.exposeFunction('__freighterSign', (xdr: string) => {
    const tx = TransactionBuilder.fromXDR(xdr, passphrase);
    tx.sign(kp);
    return tx.toXDR();
  });
  await page.exposeFunction('__freighterSignBlob', (message: string) =>
    Buffer.from(kp.sign(createHash('sha256').update(`Stellar Signed Message:\n${message}`).digest())).toString(
      'base64',
    ),
  );
  const o = { address: kp.publicKey(), network: passphrase, sign: true };
  await page.addInitScript(fakeFreighter(o), o);
}
