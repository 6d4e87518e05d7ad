import { randomBytes } from 'node:crypto';
import { type ChannelProvider, formatAmount, type PaymentRequest } from '@meter/core';

export interface SimulatedProviderOptions {
  /** Invoice lifetime in seconds (CHANNEL_INVOICE_EXPIRY_SECS); default 3600. */
  invoiceExpirySecs?: number;
  /** Currency code shown in the simulated URIs; default "CKB". */
  currency?: string;
  /** URI scheme of simulated payment URIs; default "meter-sim". */
  scheme?: string;
}

/**
 * A provider that needs no node, faucet or channel: payment URIs use a simulated scheme
 * (`meter-sim://pay/<id>?amount=..&asset=..`) and requests are confirmed with simulate-paid.
 */
export function simulatedProvider(options: SimulatedProviderOptions = {}): ChannelProvider {
  const invoiceExpirySecs = options.invoiceExpirySecs ?? 3600;
  if (!Number.isInteger(invoiceExpirySecs) || invoiceExpirySecs <= 0) {
    throw new Error('invoiceExpirySecs must be a positive integer');
  }
  const scheme = options.scheme ?? 'meter-sim';
  return {
    mode: 'simulated',
    invoiceExpirySecs,
    currency: options.currency ?? 'CKB',
    allowsSimulatedPayment: true,
    async createPayment({ paymentRequestId, amount, asset, expiresAt }) {
      const paymentHash = `0x${randomBytes(32).toString('hex')}`;
      const query = new URLSearchParams({
        amount: formatAmount(amount, asset),
        asset,
        expires: expiresAt.toISOString(),
        hash: paymentHash,
      });
      return { paymentUri: `${scheme}://pay/${paymentRequestId}?${query}`, paymentHash };
    },
    async checkPayment(request: PaymentRequest) {
      // Nothing settles on its own here: a simulated request is paid only through simulate-paid.
      if (request.status === 'paid') return { status: 'paid', invoiceStatus: 'Paid' };
      if (request.status === 'expired' || request.status === 'cancelled') {
        return {
          status: request.status,
          invoiceStatus: request.status === 'expired' ? 'Expired' : 'Cancelled',
        };
      }
      return { status: 'pending', invoiceStatus: 'Open' };
    },
  };
}
