// What the service tells its pages about the network (service/src/http/routes/web-pages.ts writes
// it into the HTML): the same RPC, passphrase and vault contract the service itself uses.
export interface PageConfig {
  rpc_url: string;
  network_passphrase: string;
  vault_contract_id: string | null;
  /** Outside production: the local test wallet is offered. */
  local_wallet: boolean;
}

export function pageConfig(): PageConfig {
  const el = document.getElementById('billing-config');
  if (!el?.textContent) throw new Error('This page was not served by the billing service (no configuration)');
  return JSON.parse(el.textContent) as PageConfig;
}
