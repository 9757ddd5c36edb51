import { z } from 'zod';
import { espIdSchema, isoDateSchema } from '../common/common.schema.js';
import { saleFlagSchema, WATER_TYPES } from '../sale/sale.schema.js';

/** Rows per page options, default 10 (docs/web-app.md, "Behaviour"). */
export const ROWS_PER_PAGE = [10, 25, 50, 100, 500, 1000] as const;

export const summaryQuerySchema = z.object({ date: isoDateSchema.optional() }).strict();
export type SummaryQuery = z.infer<typeof summaryQuerySchema>;

const dailyFigures = z.object({ dailyPriceCollected: z.number(), volumeSold: z.number() });
const monthlyFigures = z.object({ monthlyPriceCollected: z.number(), volumeSold: z.number() });

export const dailySummaryRowSchema = z.object({
  machineId: z.string(),
  coinBased: dailyFigures,
  cardBased: dailyFigures,
});
export type DailySummaryRow = z.infer<typeof dailySummaryRowSchema>;
export const dailySummaryResponseSchema = z.object({ dailyData: z.array(dailySummaryRowSchema) });
export type DailySummaryResponse = z.infer<typeof dailySummaryResponseSchema>;

export const monthlySummaryRowSchema = z.object({
  machineId: z.string(),
  coinBased: monthlyFigures,
  cardBased: monthlyFigures,
});
export type MonthlySummaryRow = z.infer<typeof monthlySummaryRowSchema>;
export const monthlySummaryResponseSchema = z.object({ monthlyData: z.array(monthlySummaryRowSchema) });
export type MonthlySummaryResponse = z.infer<typeof monthlySummaryResponseSchema>;

export const CARD_TRANSACTION_FIELDS = [
  'id',
  'cardId',
  'cardType',
  'cardholderFirstName',
  'cardholderLastName',
  'price',
  'volume',
  'waterType',
  'time',
] as const;
export const COIN_TRANSACTION_FIELDS = ['id', 'price', 'volume', 'waterType', 'time'] as const;

const filterShape = <F extends readonly [string, ...string[]]>(fields: F) => ({
  startDate: isoDateSchema.optional(),
  endDate: isoDateSchema.optional(),
  sort: z.enum(fields).default('time' as F[number]),
  order: z.enum(['asc', 'desc']).default('desc'),
});
const datesInOrder = {
  check: (q: { startDate?: string; endDate?: string }) => !q.startDate || !q.endDate || q.startDate <= q.endDate,
  message: { message: 'startDate must not be after endDate', path: ['endDate'] },
};

const transactionQuery = <F extends readonly [string, ...string[]]>(fields: F) =>
  z
    .object({
      page: z.coerce.number().int().min(1, 'page must be 1 or more').default(1),
      limit: z.coerce
        .number()
        .int()
        .refine(
          (n) => (ROWS_PER_PAGE as readonly number[]).includes(n),
          `limit must be one of ${ROWS_PER_PAGE.join(', ')}`,
        )
        .default(10),
      ...filterShape(fields),
    })
    .strict()
    .refine(datesInOrder.check, datesInOrder.message);

/** Exports take the same filters and sort, without paging (`page` and `limit` are refused). */
const exportQuery = <F extends readonly [string, ...string[]]>(fields: F) =>
  z.object(filterShape(fields)).strict().refine(datesInOrder.check, datesInOrder.message);

export const cardTransactionsQuerySchema = transactionQuery(CARD_TRANSACTION_FIELDS);
export type CardTransactionsQuery = z.infer<typeof cardTransactionsQuerySchema>;
export const coinTransactionsQuerySchema = transactionQuery(COIN_TRANSACTION_FIELDS);
export type CoinTransactionsQuery = z.infer<typeof coinTransactionsQuerySchema>;

export const cardExportQuerySchema = exportQuery(CARD_TRANSACTION_FIELDS);
export type CardExportQuery = z.infer<typeof cardExportQuerySchema>;
export const coinExportQuerySchema = exportQuery(COIN_TRANSACTION_FIELDS);
export type CoinExportQuery = z.infer<typeof coinExportQuerySchema>;

export const cardTransactionSchema = z.object({
  id: z.string(),
  cardId: z.string(),
  cardType: z.string().nullable(),
  cardholderFirstName: z.string().nullable(),
  cardholderLastName: z.string().nullable(),
  price: z.number(),
  volume: z.number(),
  waterType: z.enum(WATER_TYPES),
  time: z.string(),
  /** `null` or one of SALE_FLAGS. */
  flag: saleFlagSchema.nullable(),
  /** Litres the machine's flow meter measured, or null when it did not say (the API always sends it). */
  dispensed: z.number().nullable().optional(),
});
export type CardTransaction = z.infer<typeof cardTransactionSchema>;

export const coinTransactionSchema = z.object({
  id: z.string(),
  price: z.number(),
  volume: z.number(),
  waterType: z.enum(WATER_TYPES),
  time: z.string(),
  /** Litres the machine's flow meter measured, or null when it did not say (the API always sends it). */
  dispensed: z.number().nullable().optional(),
});
export type CoinTransaction = z.infer<typeof coinTransactionSchema>;

export const cardTransactionsResponseSchema = z.object({
  data: z.array(cardTransactionSchema),
  total: z.number().int(),
});
export type CardTransactionsResponse = z.infer<typeof cardTransactionsResponseSchema>;
export const coinTransactionsResponseSchema = z.object({
  data: z.array(coinTransactionSchema),
  total: z.number().int(),
});
export type CoinTransactionsResponse = z.infer<typeof coinTransactionsResponseSchema>;

export const machineIdParamSchema = z.object({ machineId: espIdSchema }).strict();

/** The export's header row: the table's column titles (docs/rest-api.md, "Details"). */
export const CARD_EXPORT_COLUMNS = [
  'SN',
  'Card ID',
  'Card Type',
  'First Name',
  'Last Name',
  'Price',
  'Volume',
  'Water Type',
  'Date',
] as const;
export const COIN_EXPORT_COLUMNS = ['SN', 'Price', 'Volume', 'Water Type', 'Date'] as const;
export const EXPORT_FILE_NAME = 'table_data.xlsx';
export const EXPORT_SHEET_NAME = 'Sheet1';

/** The dashboard's live charts: one call for the day, then Socket.IO keeps it current. */
export const fleetOverviewSchema = z.object({
  date: z.string(),
  /** 24 entries, hour 0–23 of the day in APP_TIMEZONE. */
  hourly: z.array(
    z.object({
      hour: z.number().int(),
      coin: z.number(),
      card: z.number(),
      volume: z.number(),
      sales: z.number().int(),
    }),
  ),
  byWaterType: z.array(z.object({ waterType: z.enum(WATER_TYPES), volume: z.number(), price: z.number() })),
  machines: z.array(
    z.object({
      machineId: z.string(),
      location: z.string().nullable(),
      online: z.boolean(),
      lastSeen: z.string().nullable(),
      attendant: z.object({ firstName: z.string(), lastName: z.string() }).nullable(),
      config: z.object({ version: z.number().int(), appliedVersion: z.number().int() }),
    }),
  ),
});
export type FleetOverview = z.infer<typeof fleetOverviewSchema>;

/** The activity feed's first screenful; Socket.IO adds to it. */
export const recentActivityQuerySchema = z
  .object({ limit: z.coerce.number().int().min(1).max(200).default(50) })
  .strict();
export const recentSaleSchema = z.object({
  id: z.string(),
  machineId: z.string(),
  kind: z.enum(['coin', 'card']),
  price: z.number(),
  volume: z.number(),
  waterType: z.enum(WATER_TYPES),
  cardId: z.string().nullable(),
  time: z.string(),
});
export type RecentSale = z.infer<typeof recentSaleSchema>;
