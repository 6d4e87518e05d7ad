import { formatAmount, parseAmount } from '@meter/core';
import {
  invoiceCurrency,
  NodeRpcError,
  type PaymentResult,
  parseInvoice,
  paymentResult,
  type RpcClient,
  translateThrown,
} from '@meter/provider-live';
import type { ApiClient, PaymentRequestView } from './api-client.js';
import type { PaymentRecord, PaymentStateFile } from './state.js';

/**
 * The hosted demo's customer. Each poll: list the live pending payment requests, pay each one
 * from the payer node once, then poll verify until it is paid. Never twice: the state file is
 * written before send_payment, the payer node is asked (get_payment) before paying, and the
 * node itself refuses a second payment of the same payment hash.
 */

export interface AutoPayerOptions {
  api: ApiClient;
  payer: RpcClient;
  state: PaymentStateFile;
  /** MAX_PAYMENT_CKB in shannons. */
  maxPayment: bigint;
  pollMs: number;
  log(message: string): void;
  /** How long one tick keeps verifying a payment it just sent; default 15 s. */
  settleTimeoutMs?: number;
}

/** Send attempts per request; only after the payer node reports the earlier ones Failed. */
export const MAX_ATTEMPTS = 3;

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

export function createAutoPayer(options: AutoPayerOptions) {
  const { api, payer, state, maxPayment, log } = options;
  const settleTimeoutMs = options.settleTimeoutMs ?? 15_000;
  const verifyEveryMs = Math.min(options.pollMs, 500);

  const record = (r: PaymentRequestView, patch: Partial<PaymentRecord>): PaymentRecord => {
    const prev = state.get(r.id);
    return state.put({
      requestId: r.id,
      paymentHash: r.paymentHash,
      amount: r.amount,
      state: prev?.state ?? 'sending',
      attempts: prev?.attempts ?? 0,
      note: null,
      ...patch,
    });
  };

  // Refusals live in memory only: a restart with a higher MAX_PAYMENT_CKB looks at them again.
  const refused = new Set<string>();
  function refuse(r: PaymentRequestView, why: string): void {
    refused.add(r.id);
    log(`refusing ${r.id}: ${why}`);
  }

  /** The payer node's payment for this hash, or null when it has none. */
  async function existingPayment(hash: string): Promise<PaymentResult | null> {
    try {
      return await payer.call('get_payment', { payment_hash: hash }, paymentResult);
    } catch (err) {
      if (err instanceof NodeRpcError && /Payment session not found/i.test(err.nodeMessage)) return null;
      throw err;
    }
  }

  async function pay(r: PaymentRequestView): Promise<void> {
    if (r.asset !== 'CKB') return refuse(r, `asset ${r.asset} is not CKB; only CKB is paid`);
    const amount = parseAmount(r.amount, 'CKB');
    if (amount > maxPayment) {
      return refuse(r, `${r.amount} CKB is above MAX_PAYMENT_CKB (${formatAmount(maxPayment, 'CKB')} CKB)`);
    }
    if (!r.paymentHash || invoiceCurrency(r.paymentUri) === null)
      return refuse(r, 'its paymentUri is not an invoice');
    const invoice = await parseInvoice(payer, r.paymentUri);
    if (invoice.paymentHash.toLowerCase() !== r.paymentHash.toLowerCase() || invoice.amount !== amount) {
      return refuse(r, 'the invoice does not match the payment request (hash or amount differs)');
    }
    const existing = await existingPayment(r.paymentHash);
    if (existing && existing.status !== 'Failed') {
      record(r, { state: 'sent', note: `payer node already has this payment (${existing.status})` });
      log(
        `${r.id}: the payer node already has payment ${r.paymentHash} (${existing.status}); not paying again`,
      );
      return;
    }
    const attempt = (state.get(r.id)?.attempts ?? 0) + 1;
    record(r, { state: 'sending', attempts: attempt, note: null }); // on disk before the money moves
    log(`paying ${r.id}: ${r.amount} CKB, payment hash ${r.paymentHash} (attempt ${attempt})`);
    try {
      const sent = await payer.call('send_payment', { invoice: r.paymentUri }, paymentResult);
      record(r, { state: 'sent' });
      log(`${r.id}: payment ${sent.status}${sent.fee ? `, fee ${formatAmount(sent.fee, 'CKB')} CKB` : ''}`);
    } catch (err) {
      if (err instanceof NodeRpcError && err.failure === 'node_error') {
        if (/Payment session already exists/i.test(err.nodeMessage)) {
          record(r, { state: 'sent', note: 'already paid or in flight' });
          return log(`${r.id}: the payer node says this payment already exists; not paying again`);
        }
        const t = translateThrown(err);
        record(r, { state: 'failed', note: `${t.title}: ${t.raw}` });
        return log(`${r.id}: send_payment failed: ${t.title} (${t.raw})`);
      }
      throw err; // unreachable or timed out: the outcome is unknown, get_payment tells next time
    }
  }

  /** Checks a payment already started, then verifies until paid (or until this tick's time is up). */
  async function followUp(r: PaymentRequestView, started: PaymentRecord): Promise<void> {
    if (started.state === 'sending' || started.state === 'sent') {
      const payment = await existingPayment(r.paymentHash!);
      if (!payment) {
        record(r, { state: 'failed', note: 'the payer node has no record of the payment' });
        return log(`${r.id}: the payer node has no record of the payment; it will be sent again`);
      }
      if (payment.status === 'Failed') {
        const t = translateThrown(payment.failed_error ?? 'Failed');
        record(r, { state: 'failed', note: `${t.title}: ${t.raw}` });
        return log(`${r.id}: the payment failed: ${t.title} (${t.raw})`);
      }
      if (started.state === 'sending') record(r, { state: 'sent' });
    }
    const deadline = Date.now() + settleTimeoutMs;
    for (;;) {
      const answer = await api.verify(r.id);
      if (answer.paid) {
        record(r, { state: 'paid' });
        return log(
          `${r.id}: verified paid (invoice ${answer.invoiceStatus ?? 'Paid'}); the balance is credited`,
        );
      }
      if (answer.status === 410 || answer.status === 409 || answer.status === 404) {
        record(r, { state: 'closed', note: answer.message });
        return log(`${r.id}: the request is closed (${answer.errorCode}): ${answer.message}`);
      }
      if (answer.status !== 200) throw new Error(`verify answered ${answer.status}: ${answer.message}`);
      if (Date.now() >= deadline)
        return log(`${r.id}: not settled yet (invoice ${answer.invoiceStatus}); will verify again`);
      await sleep(verifyEveryMs);
    }
  }

  async function handle(r: PaymentRequestView): Promise<void> {
    const known = state.get(r.id);
    if (refused.has(r.id) || known?.state === 'closed') return;
    if (known && (known.state === 'sending' || known.state === 'sent' || known.state === 'paid')) {
      return followUp(r, known);
    }
    if (known?.state === 'failed' && known.attempts >= MAX_ATTEMPTS) return;
    await pay(r);
    const now = state.get(r.id);
    if (now?.state === 'sent') await followUp(r, now);
  }

  /** One poll. Never throws: an API or node outage is logged and the next poll tries again. */
  async function tick(): Promise<void> {
    let requests: PaymentRequestView[];
    try {
      requests = await api.listLivePending();
    } catch (err) {
      return log(`cannot list payment requests: ${(err as Error).message}`);
    }
    for (const r of requests) {
      try {
        await handle(r);
      } catch (err) {
        log(`${r.id}: ${(err as Error).message}; will try again`);
      }
    }
  }

  return {
    tick,
    /** Polls every pollMs until the signal aborts. */
    async run(signal: AbortSignal): Promise<void> {
      while (!signal.aborted) {
        await tick();
        await sleep(options.pollMs, signal);
      }
    },
  };
}
