import { formatAmount, type PreflightCheck, type PreflightReport } from '@meter/core';
import {
  type DecodedInvoice,
  type FiberCurrency,
  invoiceCurrency,
  NETWORK_OF,
  parseInvoice,
} from './invoice.js';
import { type RpcClient, translateThrown } from './rpc-client.js';
import { paymentResult } from './wire.js';

const failedCheck = (id: PreflightCheck['id'], message: string, err: unknown): PreflightCheck => {
  const t = translateThrown(err);
  return {
    id,
    status: 'fail',
    message: `${message}: ${t.title}`,
    error: {
      family: t.family,
      title: t.title,
      explanation: t.explanation,
      suggestions: t.suggestions,
      raw: t.raw,
    },
  };
};

/**
 * Preflight of an invoice before anyone pays it: prefix and network, decode with
 * `parse_invoice` (on the payer node when there is one), expiry, and a `send_payment` dry run
 * on the payer node for route and fee. Node failures become failed checks, translated.
 */
export function createPreflight(options: {
  payee: RpcClient;
  payer: RpcClient | null;
  currency: FiberCurrency;
}) {
  const { payee, payer, currency } = options;
  const expectedNetwork = NETWORK_OF[currency];

  return async function preflight(invoice: string): Promise<PreflightReport> {
    const checks: PreflightCheck[] = [];
    const report = (decoded: DecodedInvoice | null, route: PreflightReport['route']): PreflightReport => ({
      ok:
        checks.every((c) => c.status !== 'fail') &&
        checks.some((c) => c.id === 'route' && c.status === 'pass'),
      expectedNetwork,
      invoice: decoded && {
        network: invoiceCurrency(invoice) ? NETWORK_OF[invoiceCurrency(invoice)!] : null,
        currency: decoded.currency,
        amount: decoded.amount,
        paymentHash: decoded.paymentHash,
        payee: decoded.payee,
        description: decoded.description,
        createdAt: decoded.createdAt,
        expiresAt: decoded.expiresAt,
      },
      route,
      checks,
    });

    const found = invoiceCurrency(invoice);
    if (!found) {
      checks.push({
        id: 'format',
        status: 'fail',
        message: 'This is not an encoded invoice: it should start with fibt1 (testnet) or fibb1 (mainnet).',
      });
      return report(null, null);
    }
    checks.push({
      id: 'format',
      status: 'pass',
      message: `Invoice prefix ${found.toLowerCase()} recognised.`,
    });
    const sameNetwork = found === currency;
    checks.push(
      sameNetwork
        ? {
            id: 'network',
            status: 'pass',
            message: `The invoice is for ${expectedNetwork}, like this service.`,
          }
        : {
            id: 'network',
            status: 'fail',
            message: `The invoice is for ${NETWORK_OF[found]} (${found.toLowerCase()}) but this service runs on ${expectedNetwork} (${currency.toLowerCase()}).`,
          },
    );

    let decoded: DecodedInvoice | null = null;
    try {
      decoded = await parseInvoice(payer ?? payee, invoice);
      checks.push({ id: 'decode', status: 'pass', message: 'The node decoded the invoice.' });
    } catch (err) {
      checks.push(failedCheck('decode', 'The node could not decode the invoice', err));
    }
    if (decoded) {
      const { expiresAt } = decoded;
      if (!expiresAt) checks.push({ id: 'expiry', status: 'pass', message: 'The invoice never expires.' });
      else if (expiresAt.getTime() <= Date.now())
        checks.push({
          id: 'expiry',
          status: 'fail',
          message: `The invoice expired at ${expiresAt.toISOString()}.`,
        });
      else
        checks.push({
          id: 'expiry',
          status: 'pass',
          message: `The invoice expires at ${expiresAt.toISOString()}.`,
        });
    }

    if (!payer) {
      checks.push({
        id: 'route',
        status: 'skip',
        message: 'No payer node is configured (CHANNEL_PREFLIGHT_RPC_URL), so no dry run was made.',
      });
      return report(decoded, null);
    }
    if (checks.some((c) => c.status === 'fail')) {
      checks.push({ id: 'route', status: 'skip', message: 'Skipped: an earlier check failed.' });
      return report(decoded, null);
    }
    try {
      const dry = await payer.call('send_payment', { invoice, dry_run: true }, paymentResult);
      const fee = dry.fee ?? 0n;
      checks.push({
        id: 'route',
        status: 'pass',
        message: `The payer node found a route; estimated fee ${formatAmount(fee, 'CKB')} CKB.`,
      });
      return report(decoded, { fee, status: dry.status });
    } catch (err) {
      checks.push(failedCheck('route', 'The dry run on the payer node failed', err));
      return report(decoded, null);
    }
  };
}
