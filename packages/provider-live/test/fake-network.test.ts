import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeNetwork, rpc, startFakeNetwork, waitFor } from './support/index.js';

/** The fakes themselves: they must answer like real nodes, or the provider tests prove nothing. */
describe('fake channel network', () => {
  let network: FakeNetwork;
  beforeAll(async () => {
    network = await startFakeNetwork({ channelCkb: false });
  });
  afterAll(async () => {
    await network?.close();
  });

  const rpcError = (p: Promise<unknown>) =>
    p.then(
      () => expect.fail('should fail'),
      (e: Error & { rpcCode: number }) => e,
    );

  it('opens a channel like a node: connect_peer by multiaddress, open_channel, list_channels until ChannelReady', async () => {
    const { payer, payee } = network;
    const info = await rpc(payee.url, 'node_info', []);
    expect(info).toMatchObject({
      version: '0.8.0',
      pubkey: payee.pubkey,
      chain_hash: expect.stringMatching(/^0x10639e08/),
    });
    const address: string = info.addresses[0];
    expect(address).toMatch(/^\/ip4\/127\.0\.0\.1\/tcp\/\d+\/p2p\/Qm/);

    const notConnected = await rpcError(
      rpc(payer.url, 'open_channel', { pubkey: payee.pubkey, funding_amount: '0xba43b7400' }),
    );
    expect(notConnected.message).toContain('feature not found, waiting for peer to send Init message');

    expect(await rpc(payer.url, 'connect_peer', { address })).toBeNull();
    expect((await rpc(payer.url, 'list_peers', [])).peers).toEqual([{ pubkey: payee.pubkey, address }]);
    const small = await rpcError(
      rpc(payer.url, 'open_channel', { pubkey: payee.pubkey, funding_amount: '0x1' }),
    );
    expect(small.message).toMatch(/The funding amount \(1\) should be greater than or equal to/);

    const opened = await rpc(payer.url, 'open_channel', {
      pubkey: payee.pubkey,
      funding_amount: '0xba43b7400',
    });
    expect(opened.temporary_channel_id).toMatch(/^0x[0-9a-f]{64}$/);
    const first = (await rpc(payer.url, 'list_channels', { pubkey: payee.pubkey })).channels[0];
    expect(first.state).toEqual({ state_name: 'NegotiatingFunding', state_flags: 'OUR_INIT_SENT|INIT_SENT' });
    expect(first.channel_outpoint).toBeNull();
    await waitFor(
      async () => (await rpc(payer.url, 'list_channels', {})).channels[0].state.state_name === 'ChannelReady',
    );
    const ready = (await rpc(payee.url, 'list_channels', {})).channels[0];
    expect(ready.state).toEqual({ state_name: 'ChannelReady' });
    expect(ready.channel_outpoint).toMatch(/^0x[0-9a-f]{64}00000000$/);
    expect(ready).toMatchObject({
      pubkey: payer.pubkey,
      local_balance: '0x0',
      remote_balance: '0xa32aef600',
      is_acceptor: true,
    });
  });

  it('pays an invoice across the network: Created -> Inflight -> Success, the payee invoice -> Paid', async () => {
    const { payer, payee } = network;
    const made = await rpc(payee.url, 'new_invoice', {
      amount: '0x5f5e100',
      currency: 'Fibt',
      description: 'coffee',
      expiry: '0xe10',
    });
    expect(made.invoice_address).toMatch(/^fibt1000000001[qpzry9x8gf2tvdw0s3jn54khce6mua7l]+$/);
    expect(made.invoice.data.attrs).toEqual(
      expect.arrayContaining([{ description: 'coffee' }, { expiry_time: '0xe10' }]),
    );
    const hash = made.invoice.data.payment_hash;
    expect((await rpc(payer.url, 'parse_invoice', { invoice: made.invoice_address })).invoice).toEqual(
      made.invoice,
    );

    const sent = await rpc(payer.url, 'send_payment', { invoice: made.invoice_address });
    expect(sent).toMatchObject({ payment_hash: hash, status: 'Created', fee: '0x0', failed_error: null });
    const seen = new Set<string>();
    await waitFor(async () => {
      const p = await rpc(payer.url, 'get_payment', { payment_hash: hash });
      seen.add(p.status);
      return p.status === 'Success';
    });
    expect(seen.has('Success')).toBe(true);
    expect((await rpc(payee.url, 'get_invoice', { payment_hash: hash })).status).toBe('Paid');
    const again = await rpcError(rpc(payer.url, 'send_payment', { invoice: made.invoice_address }));
    expect(again.message).toBe(
      `Send payment error: Payment session already exists: ${hash} with payment session status: Success`,
    );
    const cancel = await rpcError(rpc(payee.url, 'cancel_invoice', { payment_hash: hash }));
    expect(cancel.message).toBe('invoice can not be canceled, current status: Paid');
  });

  it('refuses what real nodes refuse', async () => {
    const { payer, payee } = network;
    const own = await rpc(payee.url, 'new_invoice', { amount: '0x1', currency: 'Fibt' });
    expect(
      (await rpcError(rpc(payee.url, 'send_payment', { invoice: own.invoice_address }))).message,
    ).toContain('allow_self_payment is not enabled, can not pay to self');
    const leading = await rpcError(rpc(payee.url, 'new_invoice', { amount: '0x05', currency: 'Fibt' }));
    expect(leading).toMatchObject({ rpcCode: -32602, message: 'Invalid params' });
    expect((await rpcError(rpc(payee.url, 'new_invoice', { amount: '5', currency: 'Fibt' }))).rpcCode).toBe(
      -32602,
    );
    expect((await rpcError(rpc(payee.url, 'new_invoice', { amount: '0x5', currency: 'Fibb' }))).message).toBe(
      'Currency must be Fibt with the chain network',
    );
    expect((await rpcError(rpc(payee.url, 'no_such_method', {}))).rpcCode).toBe(-32601);
    expect(
      (await rpcError(rpc(payer.url, 'get_payment', { payment_hash: `0x${'0'.repeat(64)}` }))).message,
    ).toContain('Payment session not found');
    expect(
      (await rpcError(rpc(payee.url, 'get_invoice', { payment_hash: `0x${'0'.repeat(64)}` }))).message,
    ).toBe('invoice not found');
    expect(
      (await rpcError(rpc(payer.url, 'list_channels', { only_pending: true, include_closed: true }))).message,
    ).toContain('mutually exclusive');
  });

  it('injects faults: errors, slow answers, node down, held and expired invoices', async () => {
    const { payer, payee } = network;
    payee.failWith('node_info', 'boom');
    expect((await rpcError(rpc(payee.url, 'node_info', []))).message).toBe('boom');
    payee.clearFaults();
    payee.delayMs = 150;
    const started = Date.now();
    await rpc(payee.url, 'node_info', []);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    payee.clearFaults();
    await payee.stop();
    await expect(rpc(payee.url, 'node_info', [])).rejects.toThrow();
    await payee.start();
    await rpc(payee.url, 'node_info', []);

    const inv = await rpc(payee.url, 'new_invoice', { amount: '0x1', currency: 'Fibt', expiry: '0xe10' });
    payee.expireInvoice(inv.invoice.data.payment_hash);
    expect(
      (await rpc(payee.url, 'get_invoice', { payment_hash: inv.invoice.data.payment_hash })).status,
    ).toBe('Expired');
    const held = await rpc(payee.url, 'new_invoice', { amount: '0x1', currency: 'Fibt' });
    payee.holdPayments = true;
    await rpc(payer.url, 'send_payment', { invoice: held.invoice_address });
    await waitFor(() => payee.invoices.get(held.invoice.data.payment_hash)?.status === 'Received');
    await new Promise((r) => setTimeout(r, 100));
    expect(
      (await rpc(payer.url, 'get_payment', { payment_hash: held.invoice.data.payment_hash })).status,
    ).toBe('Inflight');
    await rpc(payee.url, 'cancel_invoice', { payment_hash: held.invoice.data.payment_hash });
    await waitFor(
      async () =>
        (await rpc(payer.url, 'get_payment', { payment_hash: held.invoice.data.payment_hash })).status ===
        'Failed',
    );
    expect(
      (await rpc(payer.url, 'get_payment', { payment_hash: held.invoice.data.payment_hash })).failed_error,
    ).toBe('InvoiceCancelled');
    payee.clearFaults();
  });
});
