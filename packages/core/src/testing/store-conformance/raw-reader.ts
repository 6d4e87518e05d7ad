import type { AssetCode } from '../../domain/money.js';
import type {
  LedgerDirection,
  PaymentStatus,
  UsageStatus,
  WebhookDeliveryStatus,
} from '../../domain/types.js';

/** A stored balance. */
export interface RawBalance {
  available: bigint;
  totalFunded: bigint;
  totalSpent: bigint;
}

export interface RawLedgerEntry {
  id: string;
  direction: LedgerDirection;
  amount: bigint;
  balanceAfter: bigint;
  referenceType: string;
  referenceId: string;
}

export interface RawUsageEvent {
  id: string;
  customerId: string;
  status: UsageStatus;
  amount: bigint;
  idempotencyKey: string;
}

export interface RawWebhookDelivery {
  id: string;
  eventId: string;
  status: WebhookDeliveryStatus;
  payload: string;
}

/**
 * A backdoor onto an implementation's storage, so the conformance suite checks what was
 * really written rather than what the store's own reads say (a store whose reads and writes
 * share a mistake would otherwise pass). Each implementation writes one over its storage,
 * without reusing the store's row mappers. Amounts MUST come back exact: never through a
 * JS number above 2^53.
 */
export interface StoreRawReader {
  /** The stored balance of (customer, asset), or null when nothing is stored for it. */
  balance(customerId: string, asset: AssetCode): Promise<RawBalance | null>;
  /** The customer's ledger entries, oldest first. */
  ledgerEntries(customerId: string): Promise<RawLedgerEntry[]>;
  /** The developer's usage events, charged and refused, oldest first. */
  usageEvents(developerId: string): Promise<RawUsageEvent[]>;
  /** The developer's webhook outbox rows, oldest first. */
  webhookDeliveries(developerId: string): Promise<RawWebhookDelivery[]>;
  /** A payment request's stored status and amount, or null. */
  paymentRequest(id: string): Promise<{ status: PaymentStatus; amount: bigint } | null>;
  /** An API key's stored use and revocation times, or null. */
  apiKey(id: string): Promise<{ lastUsedAt: Date | null; revokedAt: Date | null } | null>;
  /** How many pricing rules, active or not, are stored for the service. */
  pricingRuleCount(serviceId: string): Promise<number>;
  /** Overwrites a balance's `available` directly, to break the invariants on purpose. */
  corruptBalance(customerId: string, asset: AssetCode, available: bigint): Promise<void>;
  /** Deletes a ledger entry directly, leaving a charged usage event without its debit. */
  deleteLedgerEntry(id: string): Promise<void>;
}
