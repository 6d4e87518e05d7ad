import type { AssetCode } from '../domain/money.js';
import type { PaymentRequest, ProviderMode } from '../domain/types.js';

export interface CreatePaymentInput {
  paymentRequestId: string;
  amount: bigint;
  asset: AssetCode;
  /** The request's expiry; the provider's invoice MUST NOT outlive it. */
  expiresAt: Date;
  description: string;
}

export interface CreatedPayment {
  /** A simulated URI, or the encoded invoice in live mode. */
  paymentUri: string;
  paymentHash: string | null;
}

export type PaymentCheck =
  | { status: 'paid'; invoiceStatus: string }
  | { status: 'pending'; invoiceStatus: string }
  | { status: 'expired' | 'cancelled'; invoiceStatus: string };

/**
 * Where payment requests are settled. A provider MUST report `paid` only for a payment
 * that has really settled; the store credits exactly once whatever the provider reports.
 */
export interface ChannelProvider {
  readonly mode: ProviderMode;
  /** Invoice lifetime in seconds; payment requests expire after it. */
  readonly invoiceExpirySecs: number;
  /** Currency code placed in invoices. */
  readonly currency: string;
  createPayment(input: CreatePaymentInput): Promise<CreatedPayment>;
  /** Asks the settlement side whether the request has been paid. */
  checkPayment(request: PaymentRequest): Promise<PaymentCheck>;
  /** Whether `simulate-paid` may confirm requests of this provider (true only when simulated). */
  readonly allowsSimulatedPayment: boolean;
}
