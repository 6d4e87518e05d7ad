/** The fake channel network for tests; repo-level tests import it from here by relative path. */

export { payFromPayer, rpc, waitFor } from './fake-client.js';
export { decodeInvoice, encodeInvoice, type FakeCurrency, FakeNodeError } from './fake-invoice.js';
export {
  CHANNEL_RESERVE,
  CKB,
  type FakeChannel,
  type FakeNetwork,
  type FakeNetworkOptions,
  randomHash,
  startFakeNetwork,
} from './fake-network.js';
export type { FakeInvoiceRecord, FakeNode, FakePayment } from './fake-node.js';
export { invoiceStatus } from './fake-payments.js';
