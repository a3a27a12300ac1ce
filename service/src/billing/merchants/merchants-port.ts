// What merchant verbs need from storage (storage/repos/merchants-repo.ts implements it).
import type { Merchant } from '../model.ts';
import type { Page, PageRequest } from '../paging.ts';

export interface NewMerchant {
  name: string;
  wallet_address: string;
}

export interface MerchantsRepo {
  insert(input: NewMerchant): Promise<Merchant>;
  /** Returns soft-deleted merchants too (deleted_at set); callers decide what deleted means. */
  findById(id: string): Promise<Merchant | null>;
  /** Marks a live merchant deleted; null when absent or already deleted. */
  softDelete(id: string): Promise<Merchant | null>;
  /** Live merchants, oldest first. */
  list(page: PageRequest): Promise<Page<Merchant>>;
}
