import type { FakeNetwork } from './fake-network.js';

/** A bare JSON-RPC call for tests, independent of the client under test. */
export async function rpc<T = any>(
  url: string,
  method: string,
  params: Record<string, unknown> | [] = {},
): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: Array.isArray(params) ? params : [params],
    }),
  });
  const body = (await res.json()) as { result?: T; error?: { code: number; message: string } };
  if (body.error) throw Object.assign(new Error(body.error.message), { rpcCode: body.error.code });
  return body.result as T;
}

/** Polls until check() is true (default 5 s). */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 5000,
  what = 'condition',
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Pays an invoice from the payer node and waits until the payee's invoice is Paid. */
export async function payFromPayer(network: FakeNetwork, invoice: string): Promise<string> {
  const { payment_hash } = await rpc<{ payment_hash: string }>(network.payer.url, 'send_payment', {
    invoice,
  });
  await waitFor(
    () => network.payee.invoices.get(payment_hash)?.status === 'Paid',
    5000,
    `invoice ${payment_hash} to be paid`,
  );
  return payment_hash;
}
