import { describe, expect, it } from 'vitest';
import { NODE_ERROR_FAMILIES, translateNodeError } from '../src/domain/node-errors.js';

/** One real message per row of the node reference's error list (section 11), and the transport failures. */
const SAMPLES: [string, string][] = [
  ['Send payment error: Failed to build route, PathFind error: no path found', 'no_route'],
  ['Send payment error: Failed to build route', 'route_failed'],
  [
    'Send payment error: Insufficient balance: max outbound liquidity 0 is insufficient, required amount: 100',
    'insufficient_balance',
  ],
  ['Send payment error: Failed to validate payment request: "invoice is expired"', 'invoice_expired'],
  ['Send payment error: Failed to validate payment request: "invoice is invalid"', 'invoice_invalid'],
  [
    'Send payment error: Payment session already exists: 0xab with payment session status: Inflight',
    'payment_exists',
  ],
  ['Payment session 0xab has attempts that are in flight state, can not retry', 'payment_in_flight'],
  ['Failed to validate payment request: "amount does not match the invoice"', 'invoice_mismatch'],
  ['Failed to validate payment request: "target_pubkey is missing"', 'missing_input'],
  ['Failed to validate payment request: "amount must be greater than 0"', 'zero_amount'],
  [
    'Failed to validate payment request: "allow_self_payment is not enabled, can not pay to self"',
    'self_payment',
  ],
  ['max_fee_amount is too low for selected route', 'fee_too_low'],
  ['Failed to build enough routes for MPP payment', 'mpp'],
  ['keysend payment should not have invoice', 'keysend'],
  ['invalid final_tlc_expiry_delta, expect between 9600000 and 1209600000', 'expiry_params'],
  ['The payment amount (18446744073709551616) should be less than 18446744073709551615', 'amount_overflow'],
  ['Failed to send onion packet with error TemporaryChannelFailure', 'first_hop_failed'],
  ['InvalidParameter: Payment session not found: Hash256(0xab)', 'payment_not_found'],
  ['Currency must be Fibt with the chain network', 'currency_mismatch'],
  ['invoice already exists', 'invoice_exists'],
  ['Both payment_hash and payment_preimage are set', 'hash_and_preimage'],
  ['final_expiry_delta must be greater than or equal to 9600000', 'final_expiry'],
  ['Description with length of 700 is too long, max length is 639', 'description_too_long'],
  ['Node does not support MPP, please enable MPP feature', 'feature_disabled'],
  ['invoice not found', 'invoice_not_found'],
  ['invoice can not be canceled, current status: Paid', 'invoice_not_cancellable'],
  ['Parsing failed with malformed HRP: lnbc', 'invoice_malformed'],
  ['Bech32 error: invalid checksum', 'invoice_malformed'],
  [
    "Invalid parameter: Peer Pubkey(02ab)'s feature not found, waiting for peer to send Init message",
    'peer_not_ready',
  ],
  ['Invalid parameter: peer features [] are not compatible with our features', 'peer_incompatible'],
  ['The funding amount (100) should be greater than or equal to 6200000000', 'funding_too_small'],
  ['The funding amount (18446744073709551616) should be less than 18446744073709551615', 'funding_too_large'],
  ['An one-way channel cannot be public', 'channel_params'],
  ['Funding fee rate is less than 1000', 'channel_tuning'],
  ['Failed to build CKB tx: can not find enough UDT owner cells for funding transaction', 'funding_failed'],
  ['Funding transaction aborted', 'funding_failed'],
  ['Peer not found error: Pubkey(02ab)', 'peer_address'],
  ['peer Pubkey(02ab) is not connected', 'peer_not_connected'],
  ['Unable to process shutdown command, as there are pending outbound tlcs', 'shutdown'],
  ['only_pending and include_closed are mutually exclusive', 'list_channels_args'],
  ['uint hex string does not start with 0x: 100', 'invalid_params'],
  ['IncorrectOrUnknownPaymentDetails', 'payment_details'],
  ['InvoiceExpired', 'invoice_expired'],
  ['InvoiceCancelled', 'invoice_cancelled'],
  ['TemporaryNodeFailure', 'tlc_temporary'],
  ['PermanentChannelFailure', 'tlc_permanent'],
  ['InvalidOnionHmac', 'tlc_onion'],
  ['FeeInsufficient', 'tlc_amount'],
  ['ExpiryTooSoon', 'tlc_expiry'],
  ['connect ECONNREFUSED 127.0.0.1:8227', 'node_unreachable'],
  ['The payee node did not answer get_invoice within 10000 ms', 'node_timeout'],
];

describe('translateNodeError', () => {
  it.each(SAMPLES)('%s -> %s', (message, family) => {
    const t = translateNodeError(message);
    expect(t.family).toBe(family);
    expect(t.matched).toBe(true);
    expect(t.title.length).toBeGreaterThan(3);
    expect(t.explanation.length).toBeGreaterThan(20);
    expect(t.suggestions.length).toBeGreaterThan(0);
    expect(t.raw).toBe(message);
  });

  it('covers every family it declares', () => {
    const tested = new Set(SAMPLES.map(([, family]) => family));
    const untested = NODE_ERROR_FAMILIES.filter((f) => !tested.has(f));
    expect(untested.sort()).toEqual(['method_not_found', 'parse_error', 'unauthorized'].sort());
  });

  it('reads node error objects and whole envelopes, and JSON-RPC codes without a known text', () => {
    expect(translateNodeError({ code: -32000, message: 'invoice not found', data: {} }).family).toBe(
      'invoice_not_found',
    );
    expect(
      translateNodeError({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found' } })
        .family,
    ).toBe('method_not_found');
    expect(translateNodeError({ code: -32999, message: 'denied' }).family).toBe('unauthorized');
    expect(
      translateNodeError({ code: -32602, message: 'Invalid params', data: 'invalid pubkey length' }).raw,
    ).toBe('Invalid params: invalid pubkey length');
    expect(translateNodeError({ status: 'Failed', failed_error: 'InvoiceExpired' }).family).toBe(
      'invoice_expired',
    );
  });

  it('answers unknown errors generically, with the raw text', () => {
    const t = translateNodeError('the flux capacitor is out of sync');
    expect(t).toMatchObject({ family: 'unknown', matched: false, raw: 'the flux capacitor is out of sync' });
    expect(t.explanation).toContain('the flux capacitor is out of sync');
    expect(t.suggestions.length).toBeGreaterThan(0);
    expect(translateNodeError('x'.repeat(5000)).raw.length).toBeLessThan(2010);
  });
});
