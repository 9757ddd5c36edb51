import { CARD_EXPORT_COLUMNS, COIN_EXPORT_COLUMNS } from '@wv/contracts';
import type ExcelJS from 'exceljs';
import type { ExportRow, SaleKind } from './transaction.repository.js';
import { escapeCell, type XlsxColumn } from './xlsx-table.writer.js';

/** The export's column titles (docs/rest-api.md, "Details"; docs/web-app.md, "Screens"); the last, Date, is a date cell. */
export const EXPORT_COLUMNS: Record<SaleKind, XlsxColumn[]> = {
  card: CARD_EXPORT_COLUMNS.map((title, i) => ({
    title,
    width: [8, 18, 12, 14, 14, 10, 10, 11, 20][i]!,
    date: i === 8,
  })),
  coin: COIN_EXPORT_COLUMNS.map((title, i) => ({ title, width: [8, 10, 10, 11, 20][i]!, date: i === 4 })),
};

/**
 * A row's cells: SN (1, 2, …), then the table's columns. Card IDs come from machines and names from
 * attendants: escaped. A date cell holds the local wall time (see ExportRow.localMs).
 */
export function exportCells(kind: SaleKind) {
  return (r: ExportRow, sn: number): ExcelJS.CellValue[] => {
    const tail = [Number(r.price), Number(r.volume), r.waterType, new Date(r.localMs)];
    if (kind === 'coin') return [sn, ...tail];
    return [sn, ...[r.cardId, r.cardType, r.firstName, r.lastName].map(escapeCell), ...tail];
  };
}
