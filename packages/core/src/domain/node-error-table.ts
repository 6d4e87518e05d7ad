import type { NodeErrorTranslation } from './node-errors.js';

/**
 * The node error families, most specific first: the first family whose pattern occurs in the
 * text wins. Built from the node JSON-RPC's error list (payments, invoices, channels, peers),
 * the remote failure codes of `failed_error`, and transport failures. A data table.
 */

export interface NodeErrorFamily extends NodeErrorTranslation {
  match: (string | RegExp)[];
  rpcCodes?: number[];
}

const f = (
  family: string,
  match: (string | RegExp)[],
  title: string,
  explanation: string,
  suggestions: string[],
  rpcCodes?: number[],
): NodeErrorFamily => ({ family, match, title, explanation, suggestions, ...(rpcCodes ? { rpcCodes } : {}) });

const TLC_TEMPORARY = /TemporaryNodeFailure|TemporaryChannelFailure|ChannelDisabled|UnknownNextPeer/;
const TLC_PERMANENT =
  /PermanentNodeFailure|PermanentChannelFailure|RequiredNodeFeatureMissing|RequiredChannelFeatureMissing|IncorrectTlcDirection/;
const TLC_ONION = /InvalidOnion(Version|Hmac|Key|Payload|Error)/;
const TLC_AMOUNT = /AmountBelowMinimum|FeeInsufficient|FinalIncorrectTlcAmount/;
const TLC_EXPIRY = /IncorrectTlcExpiry|ExpiryTooSoon|ExpiryTooFar|FinalIncorrectExpiryDelta|HoldTlcTimeout/;

export const NODE_ERROR_TABLE: NodeErrorFamily[] = [
  // Transport and envelope.
  f(
    'node_unreachable',
    [/ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENOTFOUND|fetch failed|socket hang up|not reachable/i],
    'Node unreachable',
    'The channel node did not accept the connection: it is stopped, still starting, or the RPC URL points to the wrong host or port.',
    [
      'Check that the node process is running and its log shows the RPC server listening.',
      'Compare CHANNEL_RPC_URL (or the payer URL) with rpc.listening_addr in the node config (default 127.0.0.1:8227).',
      'Keep the RPC on the loopback address; reach a remote node through an SSH tunnel, never an open port.',
    ],
  ),
  f(
    'node_timeout',
    [/timed out|ETIMEDOUT|did not answer .*within/i],
    'Node timed out',
    'The node accepted the request but did not answer in time. It may be overloaded, syncing, or stuck waiting on the chain.',
    [
      'Retry in a moment.',
      'Check the node log and the CKB RPC it depends on.',
      'Raise the RPC timeout only if the node is known to be slow but healthy.',
    ],
  ),
  f(
    'unauthorized',
    ['Unauthorized'],
    'RPC access denied',
    'The node has biscuit authentication on and refused the request.',
    [
      'Send a biscuit token with the needed permissions as "Authorization: Bearer <token>".',
      'Or run the node without rpc.biscuit_public_key on a loopback-only address.',
    ],
    [-32999],
  ),
  f(
    'method_not_found',
    ['Method not found'],
    'RPC method not available',
    'The node does not offer this method: its module is disabled in rpc.enabled_modules or the node version is different.',
    [
      'Enable the module (cch, channel, graph, payment, info, invoice, peer) in the node config.',
      'Check the node version (node_info) against the one this service supports (v0.8).',
    ],
    [-32601],
  ),
  f(
    'invalid_params',
    [/uint hex string|redundant leading zeros|invalid pubkey length|Invalid params/i],
    'Request encoding rejected',
    'The node could not read the request parameters. Numbers must be 0x-prefixed hex without leading zeros; node ids are 33-byte hex keys.',
    [
      'This is a client bug or a version mismatch: report it with the raw message.',
      'Check that the node version matches the one the client was written for.',
    ],
    [-32602],
  ),
  f(
    'parse_error',
    ['Parse error'],
    'Malformed request',
    'The node could not parse the JSON-RPC request body.',
    ['Check that something between the service and the node (a proxy) does not alter request bodies.'],
    [-32700],
  ),
  // send_payment.
  f(
    'no_route',
    ['no path found'],
    'No route to recipient',
    'No path with enough liquidity leads from the payer to the payee. Usually there is no ready channel between them, or its balance points the wrong way.',
    [
      'Open a channel from the payer node to the payee node and wait until list_channels shows ChannelReady.',
      'Right after a channel becomes ready the route may not be known yet: retry after a short wait.',
      'Check that the payer side of the channel holds enough balance for the amount plus fees.',
    ],
  ),
  f(
    'insufficient_balance',
    ['Insufficient balance', 'outbound liquidity'],
    'Not enough outbound balance',
    'The payer has less spendable balance in its channels than the payment needs.',
    [
      'Pay a smaller amount, or open a larger channel from the payer.',
      "Remember that about 62 CKB of a CKB channel's funding is held as reserve and cannot be sent.",
    ],
  ),
  f(
    'invoice_expired',
    ['invoice is expired', 'InvoiceExpired'],
    'Invoice expired',
    'The invoice is past its expiry time and can no longer be paid.',
    ['Create a new payment request and pay its new invoice.'],
  ),
  f(
    'invoice_cancelled',
    ['InvoiceCancelled'],
    'Invoice cancelled',
    'The payee cancelled the invoice; it can no longer be paid.',
    ['Create a new payment request.'],
  ),
  f(
    'invoice_invalid',
    ['invoice is invalid'],
    'Invoice invalid',
    'The node could not use the invoice: it is malformed, truncated or for another network.',
    [
      'Copy the whole invoice string again; it starts with fibt1 (testnet) or fibb1 (mainnet).',
      'Check that payer and payee run on the same network.',
    ],
  ),
  f(
    'payment_exists',
    ['Payment session already exists'],
    'Already paid or in flight',
    'A payment for this payment hash already exists on the payer node: it was paid already, or is still in flight.',
    [
      'Do not pay again: check the payment with get_payment by its payment_hash.',
      'Call verify on the payment request to see whether it is paid.',
    ],
  ),
  f(
    'payment_in_flight',
    ['in flight state, can not retry'],
    'Payment still in flight',
    'The previous attempt of this payment has parts in flight, so it cannot be retried yet.',
    ['Wait for get_payment to report Success or Failed before retrying.'],
  ),
  f(
    'invoice_mismatch',
    ['does not match the invoice'],
    'Parameters contradict the invoice',
    'An amount, target or payment hash was sent together with an invoice that says something else.',
    ['Send only the invoice; the node takes amount, target and hash from it.'],
  ),
  f(
    'missing_input',
    ['target_pubkey is missing', 'amount is missing', 'payment_hash is missing'],
    'Payment details missing',
    'Without an invoice, a payment needs the target node, the amount and a payment hash (or keysend).',
    ['Pay with the invoice string instead.'],
  ),
  f('zero_amount', ['amount must be greater than 0'], 'Zero amount', 'A payment of zero cannot be sent.', [
    'Use an invoice with a positive amount.',
  ]),
  f(
    'self_payment',
    ['can not pay to self', 'allow_self_payment'],
    'Node paying its own invoice',
    'The invoice was issued by the same node that tries to pay it. A node never pays its own invoice.',
    [
      'Pay from a different node (the payer) that has a channel to the payee node.',
      'Check that CHANNEL_RPC_URL and the payer URL point to two different nodes.',
    ],
  ),
  f(
    'fee_too_low',
    ['max_fee_amount is too low'],
    'Fee limit too low',
    'The route found costs more in fees than the payment allows.',
    ['Raise max_fee_rate (per-thousand) and max_fee_amount together, or use a more direct channel.'],
  ),
  f(
    'mpp',
    ['routes for MPP', 'not allow MPP', 'MPP is not supported'],
    'Multi-part payment not possible',
    'The payment would need to be split over several channels, and that is not possible here.',
    [
      'Pay a smaller amount or open a single channel large enough.',
      'Enable MPP on both nodes if you need split payments.',
    ],
  ),
  f(
    'keysend',
    ['keysend payment should not have'],
    'Invalid keysend payment',
    'A keysend payment must not carry an invoice or a payment hash.',
    ['Pay with the invoice, without keysend.'],
  ),
  f(
    'expiry_params',
    ['final_tlc_expiry_delta', 'tlc_expiry_limit is too'],
    'Invalid expiry parameters',
    "The payment's expiry parameters are outside the range the node accepts.",
    ['Leave final_tlc_expiry_delta and tlc_expiry_limit at their defaults.'],
  ),
  f(
    'funding_too_large',
    [/funding amount \(\d+\) should be less than/i, 'total funding amount'],
    'Funding amount too large',
    'The channel funding amount is above what a channel can hold.',
    ['Fund the channel with less.'],
  ),
  f(
    'amount_overflow',
    ['should be less than 18446744073709551615'],
    'Amount too large',
    'CKB payments must be below 2^64 shannons.',
    ['Pay a smaller amount.'],
  ),
  f(
    'first_hop_failed',
    ['Failed to send onion packet', 'Can not send payment with limited attempts'],
    'Payment failed on the way',
    'The payment could not get through the first channel, or every retry failed.',
    [
      'Check that the channel is ChannelReady and enabled on both nodes.',
      'Retry later; if it persists, check both node logs.',
    ],
  ),
  f(
    'route_failed',
    ['Failed to build route', 'Build payment route error'],
    'Route could not be built',
    'The payer could not build a route to the payee. Right after a channel becomes ready this is common until the graph catches up.',
    [
      'Wait a few seconds and retry.',
      'Check list_channels on the payer: the channel to the payee must be ChannelReady and enabled.',
    ],
  ),
  f(
    'payment_not_found',
    ['Payment session not found'],
    'Unknown payment',
    'The payer node has no payment with this payment hash.',
    ['Check the payment hash; the payment may have been sent from another node.'],
  ),
  // new_invoice / get_invoice / parse_invoice.
  f(
    'currency_mismatch',
    ['Currency must be'],
    'Wrong invoice currency',
    'The invoice currency does not match the chain the node runs on (Fibt on testnet, Fibb on mainnet, Fibd on devnet).',
    ["Set CHANNEL_CURRENCY to the code of the node's network (Fibt for the CKB testnet)."],
  ),
  f(
    'invoice_exists',
    ['invoice already exists', 'Duplicated invoice found'],
    'Invoice already exists',
    'An invoice with this payment hash or preimage already exists on the node.',
    ['Let the node pick a random preimage (send neither payment_hash nor payment_preimage).'],
  ),
  f(
    'hash_and_preimage',
    ['Both payment_hash and payment_preimage are set'],
    'Conflicting invoice parameters',
    'An invoice takes a payment hash or a preimage, not both.',
    ['Send only one of them, or neither.'],
  ),
  f(
    'final_expiry',
    ['final_expiry_delta must be'],
    'Invalid final expiry',
    "The invoice's final expiry delta is outside the allowed range (160 minutes to 14 days).",
    ['Leave final_expiry_delta at its default.'],
  ),
  f(
    'description_too_long',
    [/Description with length of \d+ is too long/i],
    'Description too long',
    'Invoice descriptions are limited to 639 characters.',
    ['Shorten the description.'],
  ),
  f(
    'feature_disabled',
    ['Node does not support MPP', 'Node does not support trampoline'],
    'Node feature disabled',
    'The invoice asks for a feature the node has turned off.',
    ['Enable the feature in the node config, or create the invoice without it.'],
  ),
  f(
    'invoice_not_found',
    ['invoice not found'],
    'Invoice not found',
    "The payee node has no invoice with this payment hash: it was made on another node, or the node's data was reset.",
    [
      'Check that CHANNEL_RPC_URL points to the node that created the invoice.',
      'Create a new payment request.',
    ],
  ),
  f(
    'invoice_not_cancellable',
    ['invoice can not be canceled'],
    'Invoice cannot be cancelled',
    'The invoice is already paid or cancelled.',
    ['Check the invoice status with get_invoice.'],
  ),
  f(
    'invoice_malformed',
    ['Bech32 error', 'malformed HRP', 'Unknown currency', 'Too short data part', 'Invalid signature'],
    'Malformed invoice',
    'The text is not a valid encoded invoice: it is truncated, altered, or not an invoice at all.',
    ['Copy the whole invoice again; testnet invoices start with fibt and contain no spaces.'],
  ),
  // Channels and peers.
  f(
    'peer_not_ready',
    ['waiting for peer to send Init message'],
    'Peer not connected',
    'The peer is not connected yet, or the connection handshake has not finished.',
    ["Call connect_peer with the peer's address, wait until list_peers shows it, then open the channel."],
  ),
  f(
    'peer_incompatible',
    ['are not compatible with our features'],
    'Incompatible peer',
    "The peer's node version or features are not compatible with this node.",
    ['Run compatible node versions on both sides.'],
  ),
  f(
    'funding_too_small',
    [/funding amount \(\d+\) should be greater than or equal to/i],
    'Funding amount too small',
    'A CKB channel needs at least the reserve (about 62 CKB) plus something to spend.',
    ['Fund the channel with more, e.g. 500 CKB; public testnet nodes auto-accept only from 438 CKB.'],
  ),
  f(
    'channel_params',
    ['Invalid UDT type script', 'one-way channel cannot be public'],
    'Invalid channel parameters',
    'The channel options contradict each other or name an unknown token.',
    ['Open a plain CKB channel without UDT or one-way options.'],
  ),
  f(
    'channel_tuning',
    ['fee rate is less than 1000', 'Commitment delay epoch', 'TLC expiry delta is too small'],
    'Channel tuning value out of range',
    "A fee rate, delay or expiry option is below the node's minimum.",
    ['Leave the tuning options at their defaults.'],
  ),
  f(
    'funding_failed',
    ['Failed to build CKB tx', 'Funding transaction aborted', 'enough UDT owner cells'],
    'Channel funding failed on chain',
    "The node's on-chain wallet could not build the funding transaction, usually because it holds too little CKB.",
    [
      "Fund the node's address from the testnet faucet (rate-limited) and wait for confirmation.",
      'Then open the channel again.',
    ],
  ),
  f(
    'peer_address',
    [
      'or `pubkey` is required',
      'address must not be empty',
      'Peer not found error',
      'Peer already connected',
    ],
    'Peer address problem',
    'The peer could not be dialled: no address given, the node id is unknown in the graph, or it is already connected.',
    ["Use the full multiaddress from the peer's node_info, ending with /p2p/<peer id>."],
  ),
  f('peer_not_connected', [/peer .* is not connected/i], 'Peer not connected', 'The peer is not connected.', [
    'Connect it with connect_peer first.',
  ]),
  f(
    'shutdown',
    [
      'close_script and fee_rate should not be set',
      'Channel not found error',
      'pending outbound tlcs',
      'force shutdown command invalid state',
    ],
    'Channel cannot be closed this way',
    "The close request does not fit the channel's state or options.",
    ['Wait for pending payments to finish; use force only without close_script and fee_rate.'],
  ),
  f(
    'list_channels_args',
    ['only_pending and include_closed are mutually exclusive'],
    'Conflicting list options',
    'only_pending and include_closed cannot be combined.',
    ['Send at most one of them.'],
  ),
  // Remote failure codes reported in a payment's failed_error.
  f(
    'payment_details',
    ['IncorrectOrUnknownPaymentDetails'],
    'Payee rejected the payment',
    'The payee does not know this payment hash or amount, or it was already paid.',
    [
      'Check whether the invoice is already paid (verify the payment request).',
      'Otherwise create a new payment request.',
    ],
  ),
  f(
    'tlc_temporary',
    [TLC_TEMPORARY],
    'Temporary failure on the route',
    'A node or channel on the route could not forward the payment right now.',
    ['Retry in a moment.', 'Check that both sides of the channel are online and the channel is enabled.'],
  ),
  f(
    'tlc_permanent',
    [TLC_PERMANENT],
    'Route permanently failed',
    'A node or channel on the route refuses this payment for good.',
    ['Use another route or open a direct channel to the payee.'],
  ),
  f(
    'tlc_onion',
    [TLC_ONION],
    'Routing packet rejected',
    "A node on the route could not read the payment's routing packet, often a version mismatch.",
    ['Run compatible node versions.'],
  ),
  f(
    'tlc_amount',
    [TLC_AMOUNT],
    'Amount or fee rejected on the route',
    'A hop on the route wants a larger amount or fee than offered.',
    ["Raise the fee limit, or pay above the channel's minimum."],
  ),
  f(
    'tlc_expiry',
    [TLC_EXPIRY],
    'Timing rejected on the route',
    "A hop on the route refused the payment's expiry values.",
    ['Retry with default expiry settings.'],
  ),
];
