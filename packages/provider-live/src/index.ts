export { CHAIN_HASHES, createDiagnostics, type DiagnosticsOptions } from './diagnostics.js';
export { fromHex, toHex } from './hex.js';
export {
  CURRENCY_PREFIXES,
  type DecodedInvoice,
  decodeWireInvoice,
  FIBER_CURRENCIES,
  type FiberCurrency,
  invoiceCurrency,
  invoicePrefixAmount,
  isFiberCurrency,
  NETWORK_OF,
  parseInvoice,
} from './invoice.js';
export { type LiveProviderOptions, liveProvider } from './live-provider.js';
export {
  createRpcClient,
  type NodeFailure,
  NodeRpcError,
  type RpcClient,
  type RpcClientOptions,
  translateFailure,
  translateThrown,
} from './rpc-client.js';
export {
  fundingOutpoint,
  getInvoiceResult,
  listChannelsResult,
  newInvoiceResult,
  nodeInfoResult,
  normalizeStateName,
  type PaymentResult,
  parseInvoiceResult,
  paymentResult,
  wireInvoice,
} from './wire.js';
