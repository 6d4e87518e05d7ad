import { createHash, randomBytes } from 'node:crypto';
import { decodeInvoice, encodeInvoice, FakeNodeError, wireInvoice } from './fake-invoice.js';
import { adjustBalance, balancesFor, type FakeChannel } from './fake-network.js';
import type { FakeInvoiceRecord, FakeNode, FakePayment } from './fake-node.js';
import { hex, optHex, reqHex } from './fake-params.js';

/** Invoice and payment methods of a fake node: new_invoice, get/cancel/parse_invoice, send_payment, get_payment. */

const sendError = (msg: string) => new FakeNodeError(`Send payment error: ${msg}`);
const validation = (msg: string) => sendError(`Failed to validate payment request: "${msg}"`);

/** The invoice status as get_invoice reports it: an Open invoice past its expiry reads Expired. */
export function invoiceStatus(record: FakeInvoiceRecord, now = Date.now()): string {
  const { timestamp, expiry } = record.data;
  if (record.status === 'Open' && expiry !== null && now >= timestamp + expiry * 1000) return 'Expired';
  return record.status;
}

const paymentJson = (p: FakePayment) => ({
  payment_hash: p.hash,
  status: p.status,
  created_at: hex(p.createdAt),
  last_updated_at: hex(p.updatedAt),
  failed_error: p.failedError,
  fee: hex(p.fee),
  custom_records: null,
});

export function paymentMethods(node: FakeNode): Record<string, (p: Record<string, unknown>) => unknown> {
  const { network } = node;

  function findInvoice(p: Record<string, unknown>): FakeInvoiceRecord {
    const record = node.invoices.get(String(p.payment_hash ?? '').toLowerCase());
    if (!record) throw new FakeNodeError('invoice not found');
    return record;
  }

  function route(target: FakeNode, amount: bigint): FakeChannel {
    const usable = network.channels.filter(
      (c) =>
        c.state === 'ChannelReady' &&
        c.enabled &&
        ((c.opener === node && c.acceptor === target) || (c.acceptor === node && c.opener === target)),
    );
    if (usable.length === 0 || !target.running)
      throw sendError('Failed to build route, PathFind error: no path found');
    const best = usable.reduce((a, b) => (balancesFor(a, node).local >= balancesFor(b, node).local ? a : b));
    const max = balancesFor(best, node).local;
    if (max < amount) {
      throw sendError(
        `Failed to build route, Insufficient balance: max outbound liquidity ${max} is insufficient, required amount: ${amount}`,
      );
    }
    return best;
  }

  /** Inflight after one step; then Success (invoice Paid) or Failed with the payee's TLC error code. */
  function settle(payment: FakePayment, target: FakeNode, channel: FakeChannel) {
    const record = target.invoices.get(payment.hash);
    const update = (status: string, failedError: string | null = null) => {
      payment.status = status;
      payment.failedError = failedError;
      payment.updatedAt = Date.now();
    };
    const fail = (code: string) => {
      adjustBalance(channel, node, payment.amount);
      update('Failed', code);
    };
    update('Inflight');
    const arrival = record ? invoiceStatus(record) : 'missing';
    if (!record || arrival !== 'Open') {
      const code = { Cancelled: 'InvoiceCancelled', Expired: 'InvoiceExpired' }[arrival];
      return network.later(network.stepMs, () => fail(code ?? 'IncorrectOrUnknownPaymentDetails'));
    }
    record.status = 'Received';
    const finish = () => {
      if (record.status !== 'Received') {
        return fail(record.status === 'Cancelled' ? 'InvoiceCancelled' : 'IncorrectOrUnknownPaymentDetails');
      }
      if (target.holdPayments) return network.later(network.stepMs, finish);
      record.status = 'Paid';
      adjustBalance(channel, target, payment.amount);
      update('Success');
    };
    network.later(network.stepMs, finish);
  }

  return {
    new_invoice(p) {
      const amount = reqHex(p, 'amount');
      if (p.currency !== network.currency)
        throw new FakeNodeError(`Currency must be ${network.currency} with the chain network`);
      const description = p.description === undefined ? null : String(p.description);
      if (description !== null && description.length > 639) {
        throw new FakeNodeError(
          `Description with length of ${description.length} is too long, max length is 639`,
        );
      }
      const expiry = optHex(p, 'expiry');
      const preimage = `0x${randomBytes(32).toString('hex')}`;
      const paymentHash = `0x${createHash('sha256')
        .update(Buffer.from(preimage.slice(2), 'hex'))
        .digest('hex')}`;
      const data = {
        currency: network.currency,
        amount,
        paymentHash,
        payee: node.pubkey,
        timestamp: Date.now(),
        expiry: expiry === null ? null : Number(expiry),
        description,
      };
      const record: FakeInvoiceRecord = { data, address: encodeInvoice(data), status: 'Open', preimage };
      node.invoices.set(paymentHash, record);
      return { invoice_address: record.address, invoice: wireInvoice(data) };
    },

    get_invoice(p) {
      const record = findInvoice(p);
      return {
        invoice_address: record.address,
        invoice: wireInvoice(record.data),
        status: invoiceStatus(record),
      };
    },

    cancel_invoice(p) {
      const record = findInvoice(p);
      const status = invoiceStatus(record);
      if (status === 'Paid' || status === 'Cancelled') {
        throw new FakeNodeError(`invoice can not be canceled, current status: ${status}`);
      }
      record.status = 'Cancelled';
      return { invoice_address: record.address, invoice: wireInvoice(record.data), status: 'Cancelled' };
    },

    parse_invoice(p) {
      return { invoice: wireInvoice(decodeInvoice(String(p.invoice ?? ''))) };
    },

    send_payment(p) {
      if (typeof p.invoice !== 'string') throw validation('target_pubkey is missing');
      let invoice: ReturnType<typeof decodeInvoice>;
      try {
        invoice = decodeInvoice(p.invoice);
      } catch {
        throw validation('invoice is invalid');
      }
      if (invoice.currency !== network.currency) throw validation('invoice is invalid');
      const amount = invoice.amount ?? reqHex(p, 'amount');
      const given = optHex(p, 'amount');
      if (given !== null && given !== amount) throw validation('amount does not match the invoice');
      if (amount === 0n) throw validation('amount must be greater than 0');
      if (invoice.payee === node.pubkey && p.allow_self_payment !== true) {
        throw validation('allow_self_payment is not enabled, can not pay to self');
      }
      if (invoice.expiry !== null && Date.now() >= invoice.timestamp + invoice.expiry * 1000) {
        throw validation('invoice is expired');
      }
      const existing = node.payments.get(invoice.paymentHash);
      if (existing && existing.status !== 'Failed') {
        throw sendError(
          `Payment session already exists: ${invoice.paymentHash} with payment session status: ${existing.status}`,
        );
      }
      const target = network.nodeByPubkey(invoice.payee);
      if (!target) throw sendError('Failed to build route, PathFind error: no path found');
      const channel = route(target, amount);
      const now = Date.now();
      const payment: FakePayment = {
        hash: invoice.paymentHash,
        amount,
        status: 'Created',
        createdAt: now,
        updatedAt: now,
        fee: 0n,
        failedError: null,
      };
      if (p.dry_run === true) return paymentJson(payment);
      node.payments.set(payment.hash, payment);
      adjustBalance(channel, node, -amount);
      network.later(network.stepMs, () => settle(payment, target, channel));
      return paymentJson(payment);
    },

    get_payment(p) {
      const hash = String(p.payment_hash ?? '').toLowerCase();
      const payment = node.payments.get(hash);
      if (!payment) throw new FakeNodeError(`InvalidParameter: Payment session not found: Hash256(${hash})`);
      return paymentJson(payment);
    },
  };
}
