// The URL rule for webhook endpoints. In production: https only, and the host must not be, or
// resolve to, a loopback, private or link-local address (the service must not become a way into
// its own network). Outside production anything http(s) goes, so a developer's local receiver works.
// The sender checks the address again at connection time: a name may be pointed elsewhere later.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { UrlPolicy } from '../billing/webhooks/webhooks-port.ts';
import { isPrivateAddress } from './address-rules.ts';

export function createUrlPolicy(production: boolean): UrlPolicy {
  return {
    async refuse(url) {
      if (!production) return undefined;
      const u = new URL(url);
      if (u.protocol !== 'https:') return 'url must use https:// in production';
      const host = u.hostname.replace(/^\[|\]$/g, '');
      if (isIP(host))
        return isPrivateAddress(host) ? 'url must not point at a loopback, private or link-local address' : undefined;
      if (host === 'localhost' || host.endsWith('.localhost'))
        return 'url must not point at a loopback, private or link-local address';
      try {
        const addresses = await lookup(host, { all: true });
        if (addresses.some((a) => isPrivateAddress(a.address)))
          return `url's host ${host} resolves to a loopback, private or link-local address`;
      } catch {
        return `url's host ${host} does not resolve`;
      }
      return undefined;
    },
  };
}
