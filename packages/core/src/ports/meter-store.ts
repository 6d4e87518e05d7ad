import type { AssetCode } from '../domain/money.js';
import type { PricingModel } from '../domain/pricing.js';
import type {
  ApiKey,
  Balance,
  Customer,
  Developer,
  JsonObject,
  LedgerEntry,
  MeterEvent,
  MeteredService,
  PaymentRequest,
  PaymentStatus,
  PricingRule,
  ProviderMode,
  UsageEvent,
  UsageStatus,
  WebhookAttempt,
  WebhookDelivery,
  WebhookDeliveryStatus,
} from '../domain/types.js';

/** Cursor pagination: newest first; `cursor` is the id of the last row of the previous page. */
export interface PageQuery {
  limit: number;
  cursor?: string | undefined;
}

export interface Page<T> {
  items: T[];
  /** The cursor for the next page, or null on the last page. */
  nextCursor: string | null;
}

export interface NewDeveloper {
  id: string;
  email: string;
  name: string;
  passwordHash: string;
  createdAt: Date;
}

export interface NewApiKey {
  id: string;
  developerId: string;
  name: string;
  keyPrefix: string;
  keyHash: string;
  createdAt: Date;
}

export type ServicePatch = Partial<
  Pick<
    MeteredService,
    'name' | 'slug' | 'description' | 'webhookUrl' | 'webhookSecret' | 'webhookEvents' | 'defaultAsset'
  >
>;

export type PricingRulePatch = Partial<
  Pick<PricingRule, 'name' | 'unitName' | 'pricingModel' | 'price' | 'active'>
>;

export type CustomerPatch = Partial<Pick<Customer, 'externalId' | 'name' | 'email' | 'metadata'>>;

export interface NewPaymentRequest {
  id: string;
  developerId: string;
  customerId: string;
  amount: bigint;
  asset: AssetCode;
  provider: ProviderMode;
  paymentUri: string;
  paymentHash: string | null;
  expiresAt: Date;
  metadata: JsonObject;
  createdAt: Date;
}

export interface CreditPaymentInput {
  developerId: string;
  paymentRequestId: string;
  ledgerEntryId: string;
  now: Date;
  /** When true a request past expiresAt is not credited (it is marked expired instead). */
  enforceExpiry: boolean;
  /** The balance.funded event, stored in the credit transaction when (and only when) it credits. */
  event: { id: string; payload: string };
  /** Outbox rows for the services that opted in to balance.funded, written with the credit. */
  webhooks: NewOutboxDelivery[];
}

export interface NewOutboxDelivery {
  deliveryId: string;
  serviceId: string;
  eventType: string;
  payload: string;
}

export interface ClaimDeliveriesInput {
  now: Date;
  /** At most this many deliveries are claimed. */
  limit: number;
  /** The claim expires after this long, so a dispatcher that dies mid-attempt does not lose the delivery. */
  leaseMs: number;
  /** Identifies this claim; recordWebhookAttempt must present it. */
  leaseToken: string;
  /** Claim only these deliveries (the after-commit fast path, or a manual retry). */
  ids?: string[] | undefined;
  /** Also claim deliveries that are sent or failed (a manual retry); default only due pending ones. */
  includeFinal?: boolean | undefined;
  /** Restrict to one developer's deliveries (a manual retry through the API). */
  developerId?: string | undefined;
}

export interface AttemptOutcome {
  status: WebhookDeliveryStatus;
  /** For status 'pending': when to try again. */
  nextAttemptAt: Date | null;
}

export type CreditOutcome =
  | { outcome: 'credited'; request: PaymentRequest; balance: Balance }
  | { outcome: 'already_paid' | 'expired' | 'cancelled'; request: PaymentRequest }
  | { outcome: 'not_found' };

export interface ChargeUsageInput {
  developerId: string;
  usageEventId: string;
  ledgerEntryId: string;
  service: Pick<MeteredService, 'id' | 'slug'>;
  customer: Pick<Customer, 'id' | 'externalId'>;
  pricingRuleId: string;
  metricKey: string;
  quantity: number;
  amount: bigint;
  asset: AssetCode;
  idempotencyKey: string;
  /** usageFingerprint() of service, customer, metric and quantity. */
  fingerprint: string;
  metadata: JsonObject;
  now: Date;
  /** Written in the same transaction when the charge succeeds (the transactional outbox). */
  webhook: Omit<NewOutboxDelivery, 'serviceId'> | null;
}

export type ChargeOutcome =
  /** `replay`: the key was already charged; `event` is the original charge and nothing new was written. */
  | { outcome: 'charged'; event: UsageEvent; replay: boolean; deliveryId: string | null }
  | { outcome: 'insufficient_balance'; event: UsageEvent }
  | { outcome: 'idempotency_conflict' };

export interface UsageEventFilter {
  status?: UsageStatus | undefined;
  customerId?: string | undefined;
  serviceId?: string | undefined;
}

export interface PaymentRequestFilter {
  status?: PaymentStatus | undefined;
  customerId?: string | undefined;
  /** Needed to tell pending from expired requests that no write has marked yet. */
  now: Date;
}

export interface LedgerFilter {
  customerId?: string | undefined;
  asset?: AssetCode | undefined;
}

export interface NewWebhookAttempt extends Omit<WebhookAttempt, 'deliveryId'> {}

export interface InvariantViolation {
  kind: 'ledger_mismatch' | 'totals_mismatch' | 'charge_without_ledger' | 'negative_balance';
  customerId: string;
  asset: string;
  detail: string;
}

export interface DashboardSummary {
  customers: number;
  services: number;
  balances: { asset: AssetCode; available: bigint; totalFunded: bigint; totalSpent: bigint }[];
  usage: { charged: number; insufficientBalance: number };
  paymentRequests: { pending: number; paid: number; expired: number };
  webhookDeliveries: { pending: number; sent: number; failed: number };
}

/**
 * Persistence for everything the meter keeps. Every read and write is scoped to one
 * developer: a row owned by another developer MUST behave as if it did not exist.
 * Operations that change money or claim something carry their own guard in the database
 * (unique index, conditional update), so they stay correct with many processes on one
 * database. The store MUST NOT rely on process memory for correctness.
 */
export interface MeterStore {
  /** Creates the developer. MUST throw MeterError('conflict') when the email (case-insensitive) is taken. */
  createDeveloper(input: NewDeveloper): Promise<Developer>;
  getDeveloper(id: string): Promise<Developer | null>;
  /** Looks a developer up by email, case-insensitively, with the password hash for login. */
  findDeveloperForLogin(email: string): Promise<(Developer & { passwordHash: string }) | null>;

  createApiKey(input: NewApiKey): Promise<ApiKey>;
  listApiKeys(developerId: string): Promise<ApiKey[]>;
  /** Finds a key that is not revoked by its hash, and records when it was last used. */
  findActiveApiKeyByHash(keyHash: string, now: Date): Promise<ApiKey | null>;
  /** Revokes the key. MUST return false when it does not exist, is another developer's or is already revoked. */
  revokeApiKey(developerId: string, id: string, now: Date): Promise<boolean>;

  /** MUST throw MeterError('conflict') when the slug is taken within the developer account. */
  createService(input: Omit<MeteredService, 'updatedAt'>): Promise<MeteredService>;
  listServices(developerId: string, page: PageQuery): Promise<Page<MeteredService>>;
  getService(developerId: string, id: string): Promise<MeteredService | null>;
  getServiceBySlug(developerId: string, slug: string): Promise<MeteredService | null>;
  /** MUST throw MeterError('conflict') on a slug that is taken; returns null when not found. */
  updateService(
    developerId: string,
    id: string,
    patch: ServicePatch,
    now: Date,
  ): Promise<MeteredService | null>;
  /** Deletes the service and its pricing rules; usage history keeps its recorded slug. */
  deleteService(developerId: string, id: string): Promise<boolean>;

  /**
   * MUST throw MeterError('conflict') when the rule is active and another active rule exists
   * for the same (service, metricKey, asset); this MUST hold for racing callers too.
   */
  createPricingRule(input: Omit<PricingRule, 'updatedAt'>): Promise<PricingRule>;
  listPricingRules(developerId: string, serviceId: string): Promise<PricingRule[]>;
  getPricingRule(developerId: string, id: string): Promise<PricingRule | null>;
  /** Same uniqueness guarantee as createPricingRule when the patch activates the rule. */
  updatePricingRule(
    developerId: string,
    id: string,
    patch: PricingRulePatch,
    now: Date,
  ): Promise<PricingRule | null>;
  deletePricingRule(developerId: string, id: string): Promise<boolean>;
  findActivePricingRule(serviceId: string, metricKey: string, asset: AssetCode): Promise<PricingRule | null>;

  /** MUST throw MeterError('conflict') when externalId is taken within the developer account. */
  createCustomer(input: Omit<Customer, 'updatedAt'>): Promise<Customer>;
  listCustomers(developerId: string, page: PageQuery): Promise<Page<Customer>>;
  getCustomer(developerId: string, id: string): Promise<Customer | null>;
  getCustomerByExternalId(developerId: string, externalId: string): Promise<Customer | null>;
  updateCustomer(developerId: string, id: string, patch: CustomerPatch, now: Date): Promise<Customer | null>;
  /**
   * Deletes a customer whose balances are all zero. MUST refuse ('has_balance') when any
   * balance is non-zero at the moment of deletion, even if a credit races the delete.
   */
  deleteCustomer(developerId: string, id: string): Promise<'deleted' | 'not_found' | 'has_balance'>;

  /** The customer's balances; assets never funded are absent (callers read them as zero). */
  listBalances(developerId: string, customerId: string): Promise<Balance[]>;

  createPaymentRequest(input: NewPaymentRequest): Promise<PaymentRequest>;
  listPaymentRequests(
    developerId: string,
    filter: PaymentRequestFilter,
    page: PageQuery,
  ): Promise<Page<PaymentRequest>>;
  getPaymentRequest(developerId: string, id: string): Promise<PaymentRequest | null>;
  /**
   * Marks a pending request paid and credits the customer's balance by its amount, with a
   * ledger credit carrying balanceAfter, in one transaction. MUST credit at most once however
   * many callers race; later callers get 'already_paid'.
   */
  creditPaymentRequest(input: CreditPaymentInput): Promise<CreditOutcome>;
  /** Moves a pending request to a final unpaid state. MUST NOT touch a request that is no longer pending. */
  closePaymentRequest(
    developerId: string,
    id: string,
    status: 'expired' | 'cancelled',
  ): Promise<PaymentRequest | null>;

  /**
   * Records one usage attempt, in one transaction: claims the idempotency key, decrements
   * the balance only if it covers the amount (a conditional update, never read-then-write),
   * and writes the usage event, the ledger debit with balanceAfter and the webhook outbox
   * row. MUST charge a key at most once however many callers race; a key whose earlier
   * attempts were refused for balance is evaluated again. A key reused with another
   * fingerprint MUST give 'idempotency_conflict' and write nothing.
   */
  chargeUsage(input: ChargeUsageInput): Promise<ChargeOutcome>;
  listUsageEvents(developerId: string, filter: UsageEventFilter, page: PageQuery): Promise<Page<UsageEvent>>;
  /**
   * The charged event of an idempotency key with the key's fingerprint, or null when the key
   * is unknown or was never charged. Lets a replay be answered when the pricing rule it was
   * charged under is no longer active.
   */
  findChargedUsage(
    developerId: string,
    idempotencyKey: string,
  ): Promise<{ fingerprint: string; event: UsageEvent } | null>;

  listLedgerEntries(developerId: string, filter: LedgerFilter, page: PageQuery): Promise<Page<LedgerEntry>>;

  listWebhookDeliveries(
    developerId: string,
    filter: { status?: WebhookDeliveryStatus | undefined },
    page: PageQuery,
  ): Promise<Page<WebhookDelivery>>;
  getWebhookDelivery(developerId: string, id: string): Promise<WebhookDelivery | null>;
  /**
   * Claims deliveries to attempt: due pending ones (nextAttemptAt <= now), or the given ids.
   * A delivery whose lease has not expired MUST NOT be claimed again, however many
   * dispatchers in however many processes race (PostgreSQL and MySQL claim with
   * FOR UPDATE SKIP LOCKED so racing dispatchers do not wait on each other).
   */
  claimWebhookDeliveries(input: ClaimDeliveriesInput): Promise<WebhookDelivery[]>;
  /**
   * Records an attempt and moves the delivery on (sent, failed, or pending until
   * nextAttemptAt), releasing the lease, in one transaction. MUST write nothing and return
   * false when the lease token no longer holds the delivery (it expired and was claimed again).
   */
  recordWebhookAttempt(
    deliveryId: string,
    leaseToken: string,
    attempt: NewWebhookAttempt,
    outcome: AttemptOutcome,
  ): Promise<boolean>;
  /**
   * Puts a service's failed deliveries created at or after `since` back to pending, due at
   * `now`, for one more attempt each. Returns how many.
   */
  requeueFailedDeliveries(developerId: string, serviceId: string, since: Date, now: Date): Promise<number>;

  listEvents(
    developerId: string,
    filter: { type?: string | undefined },
    page: PageQuery,
  ): Promise<Page<MeterEvent>>;

  /** Counts and sums; payment requests are counted by effective status at `now`. */
  dashboardSummary(developerId: string, now: Date): Promise<DashboardSummary>;

  /**
   * Checks every (customer, asset): ledger credits - debits = available = totalFunded - totalSpent,
   * available >= 0, and every charged usage event has exactly one ledger entry.
   */
  checkInvariants(developerId?: string): Promise<InvariantViolation[]>;

  /** Releases connections. */
  close(): Promise<void>;
}

export type { PricingModel };
