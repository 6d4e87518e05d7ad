import { type DashboardSummary, isAssetCode, type MeterStore } from '@meter/core';
import type { StoreContext } from './context.js';
import { bigSum, readBigSum, toNumber } from './dialect.js';
import type { Row } from './rows.js';

/** Counts and per-asset sums for the dashboard, all computed in SQL. */
export function summaryStore({ knex, dialect }: StoreContext): Pick<MeterStore, 'dashboardSummary'> {
  return {
    async dashboardSummary(developerId, now) {
      const mine = (table: string) => knex(table).where({ developer_id: developerId });
      const countBy = async (table: string, column: string) => {
        const rows = (await mine(table).select(column).count({ n: '*' }).groupBy(column)) as Row[];
        return new Map(rows.map((r) => [String(r[column]), toNumber(r.n)]));
      };
      const total = async (table: string) =>
        toNumber(((await mine(table).count({ n: '*' })) as Row[])[0]?.n ?? 0);

      // Counted by effective status: an unpaid request past expiresAt counts as expired.
      const paymentCounts = async () => {
        const rows = (await mine('payment_requests')
          .select(
            knex.raw(
              "CASE WHEN status = 'pending' AND expires_at <= ? THEN 'expired' ELSE status END AS effective_status",
              [now.getTime()],
            ),
          )
          .count({ n: '*' })
          .groupByRaw('1')) as Row[];
        return new Map(rows.map((r) => [String(r.effective_status), toNumber(r.n)]));
      };

      const [customers, services, balanceRows, usage, payments, webhooks] = await Promise.all([
        total('customers'),
        total('services'),
        mine('balances')
          .select('asset')
          .select(bigSum(knex, dialect, 'available', 'available'))
          .select(bigSum(knex, dialect, 'total_funded', 'total_funded'))
          .select(bigSum(knex, dialect, 'total_spent', 'total_spent'))
          .groupBy('asset')
          .orderBy('asset') as Promise<Row[]>,
        countBy('usage_events', 'status'),
        paymentCounts(),
        countBy('webhook_deliveries', 'status'),
      ]);

      const balances: DashboardSummary['balances'] = [];
      for (const row of balanceRows) {
        const asset = String(row.asset);
        if (!isAssetCode(asset)) continue;
        balances.push({
          asset,
          available: readBigSum(dialect, row, 'available'),
          totalFunded: readBigSum(dialect, row, 'total_funded'),
          totalSpent: readBigSum(dialect, row, 'total_spent'),
        });
      }
      return {
        customers,
        services,
        balances,
        usage: {
          charged: usage.get('charged') ?? 0,
          insufficientBalance: usage.get('insufficient_balance') ?? 0,
        },
        paymentRequests: {
          pending: payments.get('pending') ?? 0,
          paid: payments.get('paid') ?? 0,
          expired: payments.get('expired') ?? 0,
        },
        webhookDeliveries: {
          pending: webhooks.get('pending') ?? 0,
          sent: webhooks.get('sent') ?? 0,
          failed: webhooks.get('failed') ?? 0,
        },
      };
    },
  };
}
