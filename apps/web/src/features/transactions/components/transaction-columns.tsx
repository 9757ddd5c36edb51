import type { ReactNode } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from '@/lib/i18n';
import { CARD_EXPORT_COLUMNS, COIN_EXPORT_COLUMNS, type CardTransaction, type CoinTransaction } from '@wv/contracts';
import { formatDateTime } from '@/lib/dates';
import { formatLitres, formatMoney, formatWaterType } from '@/lib/format';
import type { XlsxCell } from '@/lib/xlsx';
import type { TransactionField, TransactionKind, TransactionRow } from '../api/get-transactions';

/** A column's stable name; its title is `transactions.column.<key>` in the chosen language. */
export type ColumnKey =
  'sn' | 'cardId' | 'cardType' | 'firstName' | 'lastName' | 'price' | 'volume' | 'waterType' | 'time';

export interface Column<K extends TransactionKind> {
  key: ColumnKey;
  /** The field the server sorts by; SN is a row number and does not sort. */
  field?: TransactionField<K>;
  numeric?: boolean;
  render: (row: TransactionRow<K>, sn: number) => ReactNode;
  /** The cell written to a spreadsheet. */
  cell: (row: TransactionRow<K>, sn: number) => XlsxCell;
}

/** A column's title in the chosen language. */
export const columnTitle = (t: TFunction, key: ColumnKey): string => t(`transactions.column.${key}`);

function CardIdCell({ row }: { row: CardTransaction }) {
  const { t } = useTranslation();
  return (
    <>
      <span className="nowrap">{row.cardId}</span>
      {row.flag && (
        <span className={`flag flag-${row.flag}`} title={t(`transactions.flagHint.${row.flag}`)}>
          {t(`transactions.flag.${row.flag}`)}
        </span>
      )}
    </>
  );
}

/** The row's number across pages (SN). */
const snColumn = <K extends TransactionKind>(): Column<K> => ({
  key: 'sn',
  numeric: true,
  render: (_, n) => n,
  cell: (_, n) => n,
});

const common = {
  price: {
    key: 'price',
    field: 'price',
    numeric: true,
    render: (row: CoinTransaction | CardTransaction) => formatMoney(row.price),
    cell: (row: CoinTransaction | CardTransaction) => row.price,
  },
  volume: {
    key: 'volume',
    field: 'volume',
    numeric: true,
    render: (row: CoinTransaction | CardTransaction) => formatLitres(row.volume),
    cell: (row: CoinTransaction | CardTransaction) => row.volume,
  },
  waterType: {
    key: 'waterType',
    field: 'waterType',
    render: (row: CoinTransaction | CardTransaction) => formatWaterType(row.waterType),
    cell: (row: CoinTransaction | CardTransaction) => row.waterType,
  },
  time: {
    key: 'time',
    field: 'time',
    render: (row: CoinTransaction | CardTransaction) => <span className="nowrap">{formatDateTime(row.time)}</span>,
    cell: (row: CoinTransaction | CardTransaction) => new Date(row.time),
  },
} as const;

/** Coin-Based Transactions: SN, Price, Volume, Water Type, Date. */
export const COIN_COLUMNS: Column<'coin'>[] = [
  snColumn<'coin'>(),
  common.price,
  common.volume,
  common.waterType,
  common.time,
];

/** Card-Based Transactions: SN, Card ID, Card Type, First Name, Last Name, Price, Volume, Water Type, Date. */
export const CARD_COLUMNS: Column<'card'>[] = [
  snColumn<'card'>(),
  { key: 'cardId', field: 'cardId', render: (row) => <CardIdCell row={row} />, cell: (row) => row.cardId },
  { key: 'cardType', field: 'cardType', render: (row) => row.cardType ?? '', cell: (row) => row.cardType },
  {
    key: 'firstName',
    field: 'cardholderFirstName',
    render: (row) => row.cardholderFirstName ?? '',
    cell: (row) => row.cardholderFirstName,
  },
  {
    key: 'lastName',
    field: 'cardholderLastName',
    render: (row) => row.cardholderLastName ?? '',
    cell: (row) => row.cardholderLastName,
  },
  common.price,
  common.volume,
  common.waterType,
  common.time,
];

export const EXPORT_HEADER = { card: CARD_EXPORT_COLUMNS, coin: COIN_EXPORT_COLUMNS } as const;

export function columnsFor<K extends TransactionKind>(kind: K): Column<K>[] {
  // `kind` picks the list whose rows are TransactionRow<K>.
  return (kind === 'card' ? CARD_COLUMNS : COIN_COLUMNS) as Column<TransactionKind>[] as Column<K>[];
}
