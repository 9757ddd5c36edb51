import type { ReactNode } from 'react';
import { CARD_EXPORT_COLUMNS, COIN_EXPORT_COLUMNS, type CardTransaction, type CoinTransaction } from '@wv/contracts';
import { formatDateTime } from '@/lib/dates';
import { formatLitres, formatMoney, formatWaterType } from '@/lib/format';
import type { XlsxCell } from '@/lib/xlsx';
import type { TransactionField, TransactionKind, TransactionRow } from '../api/get-transactions';

export interface Column<K extends TransactionKind> {
  /** The column title (also the export's header, docs/rest-api.md, "Details"). */
  title: string;
  /** The field the server sorts by; SN is a row number and does not sort. */
  field?: TransactionField<K>;
  numeric?: boolean;
  render: (row: TransactionRow<K>, sn: number) => ReactNode;
  /** The cell written to a spreadsheet. */
  cell: (row: TransactionRow<K>, sn: number) => XlsxCell;
}

const FLAG_TEXT = {
  unknown_card: 'Unknown card',
  overdrawn: 'Overdrawn',
  foreign_card: 'Foreign card',
  blocked_card: 'Blocked card',
  over_limit: 'Over limit',
} as const;
const FLAG_HINT = {
  unknown_card: 'The machine sold to a card that is not registered; the sale is kept.',
  overdrawn: 'The sale took the card below zero; the sale is kept.',
  foreign_card: 'The card is registered at another owner’s machines; the sale is kept, not charged to the card.',
  blocked_card: 'The card was blocked before this sale; the machine sold offline and the sale is kept.',
  over_limit: 'The sale took the card past its daily limit of litres; the sale is kept.',
} as const;

function CardIdCell({ row }: { row: CardTransaction }) {
  return (
    <>
      <span className="nowrap">{row.cardId}</span>
      {row.flag && (
        <span className={`flag flag-${row.flag}`} title={FLAG_HINT[row.flag]}>
          {FLAG_TEXT[row.flag]}
        </span>
      )}
    </>
  );
}

/** The row's number across pages (SN). */
const snColumn = <K extends TransactionKind>(): Column<K> => ({
  title: 'SN',
  numeric: true,
  render: (_, n) => n,
  cell: (_, n) => n,
});

const common = {
  price: {
    title: 'Price',
    field: 'price',
    numeric: true,
    render: (row: CoinTransaction | CardTransaction) => formatMoney(row.price),
    cell: (row: CoinTransaction | CardTransaction) => row.price,
  },
  volume: {
    title: 'Volume',
    field: 'volume',
    numeric: true,
    render: (row: CoinTransaction | CardTransaction) => formatLitres(row.volume),
    cell: (row: CoinTransaction | CardTransaction) => row.volume,
  },
  waterType: {
    title: 'Water Type',
    field: 'waterType',
    render: (row: CoinTransaction | CardTransaction) => formatWaterType(row.waterType),
    cell: (row: CoinTransaction | CardTransaction) => row.waterType,
  },
  time: {
    title: 'Date',
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
  { title: 'Card ID', field: 'cardId', render: (row) => <CardIdCell row={row} />, cell: (row) => row.cardId },
  { title: 'Card Type', field: 'cardType', render: (row) => row.cardType ?? '', cell: (row) => row.cardType },
  {
    title: 'First Name',
    field: 'cardholderFirstName',
    render: (row) => row.cardholderFirstName ?? '',
    cell: (row) => row.cardholderFirstName,
  },
  {
    title: 'Last Name',
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
