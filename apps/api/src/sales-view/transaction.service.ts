import { Injectable } from '@nestjs/common';
import {
  ErrorCode,
  type CardExportQuery,
  type CoinExportQuery,
  type CardTransactionsQuery,
  type CardTransactionsResponse,
  type CoinTransactionsQuery,
  type CoinTransactionsResponse,
} from '@wv/contracts';
import type { Actor } from '../common/actor.js';
import { AppError } from '../common/app-error.js';
import { DeviceDirectory } from '../device/device-directory.js';
import { num } from './local-day.js';
import { TransactionRepository, type SaleKind, type TransactionFilter } from './transaction.repository.js';

type Filters = CardExportQuery | CoinExportQuery;

/** A machine's card and coin transaction pages; a machine outside the caller's scope is 404. */
@Injectable()
export class TransactionService {
  constructor(
    private readonly devices: DeviceDirectory,
    private readonly transactions: TransactionRepository,
  ) {}

  async cardPage(actor: Actor, machineId: string, q: CardTransactionsQuery): Promise<CardTransactionsResponse> {
    const { total, rows } = await this.page(actor, machineId, 'card', q);
    return {
      total,
      data: rows.map((r) => ({
        id: r.id,
        cardId: r.cardId ?? '',
        cardType: r.cardType,
        cardholderFirstName: r.cardholderFirstName,
        cardholderLastName: r.cardholderLastName,
        price: num(r.price),
        volume: num(r.volume),
        waterType: r.waterType as CardTransactionsResponse['data'][number]['waterType'],
        time: r.time,
        flag: r.flag as CardTransactionsResponse['data'][number]['flag'],
        dispensed: r.dispensed === null ? null : num(r.dispensed),
      })),
    };
  }

  async coinPage(actor: Actor, machineId: string, q: CoinTransactionsQuery): Promise<CoinTransactionsResponse> {
    const { total, rows } = await this.page(actor, machineId, 'coin', q);
    return {
      total,
      data: rows.map((r) => ({
        id: r.id,
        price: num(r.price),
        volume: num(r.volume),
        waterType: r.waterType as CoinTransactionsResponse['data'][number]['waterType'],
        time: r.time,
        dispensed: r.dispensed === null ? null : num(r.dispensed),
      })),
    };
  }

  /** The filter of one machine's sales of one kind, after checking the caller may see the machine. */
  async filterFor(actor: Actor, machineId: string, kind: SaleKind, q: Filters): Promise<TransactionFilter> {
    if (!(await this.devices.findVisible(actor, machineId))) throw new AppError(ErrorCode.DeviceNotFound);
    return filterOf(machineId, kind, q);
  }

  /** The scope check is part of the page's one statement: a machine outside the scope is 404. */
  private async page(
    actor: Actor,
    machineId: string,
    kind: SaleKind,
    q: CardTransactionsQuery | CoinTransactionsQuery,
  ) {
    const page = await this.transactions.page(actor, filterOf(machineId, kind, q), (q.page - 1) * q.limit, q.limit);
    if (!page.visible) throw new AppError(ErrorCode.DeviceNotFound);
    return page;
  }
}

function filterOf(machineId: string, kind: SaleKind, q: Filters): TransactionFilter {
  return { espId: machineId, kind, startDate: q.startDate, endDate: q.endDate, sort: q.sort, order: q.order };
}
