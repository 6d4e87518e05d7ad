import { describe, expect, it } from 'vitest';
import {
  decodeWireInvoice,
  fundingOutpoint,
  invoiceCurrency,
  invoicePrefixAmount,
  listChannelsResult,
  nodeInfoResult,
  normalizeStateName,
  wireInvoice,
} from '../src/index.js';

const HASH = `0x${'ab'.repeat(32)}`;

describe('wire shapes of every node version', () => {
  it('normalises channel state names case- and underscore-insensitively', () => {
    for (const s of ['ChannelReady', 'CHANNEL_READY', 'channel_ready'])
      expect(normalizeStateName(s)).toBe('ChannelReady');
    expect(normalizeStateName('AWAITING_CHANNEL_READY')).toBe('AwaitingChannelReady');
    expect(normalizeStateName('SomethingNew')).toBe('SomethingNew');
  });

  it('reads state_flags as a string, an array, or absent', () => {
    const channel = (state: unknown) => ({
      channel_id: HASH,
      channel_outpoint: null,
      pubkey: '02'.padEnd(66, '1'),
      state,
      local_balance: '0x0',
      remote_balance: '0x1',
    });
    const parsed = listChannelsResult.parse({
      channels: [
        channel({ state_name: 'AwaitingChannelReady', state_flags: 'OUR_CHANNEL_READY|CHANNEL_READY' }),
        channel({ state_name: 'NEGOTIATING_FUNDING', state_flags: 'OUR_INIT_SENT | THEIR_INIT_SENT' }),
        channel({ state_name: 'CHANNEL_READY', state_flags: [] }),
        channel({ state_name: 'ChannelReady' }),
      ],
    });
    expect(parsed.channels.map((c) => c.state)).toEqual([
      { name: 'AwaitingChannelReady', flags: ['OUR_CHANNEL_READY', 'CHANNEL_READY'] },
      { name: 'NegotiatingFunding', flags: ['OUR_INIT_SENT', 'THEIR_INIT_SENT'] },
      { name: 'ChannelReady', flags: [] },
      { name: 'ChannelReady', flags: [] },
    ]);
    expect(parsed.channels[0]!.remote_balance).toBe(1n);
  });

  it('takes the peer id from pubkey or the older peer_id, and the node id from pubkey or node_id', () => {
    const c = listChannelsResult.parse({
      channels: [
        {
          channel_id: HASH,
          peer_id: 'QmPeer',
          state: { state_name: 'CLOSED' },
          local_balance: '0x0',
          remote_balance: '0x0',
        },
      ],
    });
    expect(c.channels[0]!.peerId).toBe('QmPeer');
    expect(nodeInfoResult.parse({ node_id: '03aa' }).nodeId).toBe('03aa');
    expect(nodeInfoResult.parse({ pubkey: '02bb', node_id: '03aa', channel_count: '0x2' })).toMatchObject({
      nodeId: '02bb',
      channel_count: 2,
    });
  });

  it('splits channel_outpoint into the funding tx hash and its little-endian output index', () => {
    const tx = `0x${'9b'.repeat(32)}`;
    expect(fundingOutpoint(`${tx}00000000`)).toEqual({ txHash: tx, index: 0 });
    expect(fundingOutpoint(`${tx}01000000`)).toEqual({ txHash: tx, index: 1 });
    expect(fundingOutpoint(`${tx}00010000`)).toEqual({ txHash: tx, index: 256 });
    expect(fundingOutpoint({ tx_hash: tx, index: '0x2' })).toEqual({ txHash: tx, index: 2 });
    expect(fundingOutpoint(null)).toBeNull();
    expect(fundingOutpoint('0x1234')).toBeNull();
  });

  it('decodes invoices with v0.8 snake_case attrs and the old PascalCase ones', () => {
    const base = { currency: 'Fibt', amount: '0x5f5e100', signature: null };
    const v08 = wireInvoice.parse({
      ...base,
      data: {
        timestamp: '0x3e8',
        payment_hash: HASH,
        attrs: [{ description: 'coffee' }, { expiry_time: '0xe10' }, { payee_public_key: '02ff' }],
      },
    });
    expect(decodeWireInvoice(v08)).toEqual({
      currency: 'Fibt',
      amount: 100_000_000n,
      paymentHash: HASH,
      payee: '02ff',
      description: 'coffee',
      createdAt: new Date(1000),
      expiresAt: new Date(1000 + 3600 * 1000),
    });
    const old = wireInvoice.parse({
      ...base,
      data: {
        timestamp: '0x3e8',
        payment_hash: HASH.slice(2),
        attrs: [{ Description: 'tea' }, { ExpiryTime: { secs: 60 } }],
      },
    });
    expect(decodeWireInvoice(old)).toMatchObject({
      description: 'tea',
      paymentHash: HASH,
      expiresAt: new Date(61_000),
    });
    const forever = wireInvoice.parse({
      ...base,
      amount: null,
      data: { timestamp: '0x0', payment_hash: HASH, attrs: [] },
    });
    expect(decodeWireInvoice(forever)).toMatchObject({ amount: null, expiresAt: null });
  });

  it('tells the network and amount from the invoice prefix', () => {
    expect(invoiceCurrency('fibt1000000001pqqq')).toBe('Fibt');
    expect(invoiceCurrency('FIBB1qqq')).toBe('Fibb');
    expect(invoiceCurrency('lnbc1qqq')).toBeNull();
    expect(invoicePrefixAmount('fibt1000000001pqqq')).toBe(100_000_000n);
    expect(invoicePrefixAmount('fibt1pqqq')).toBeNull();
  });
});
