import { Controller, Res } from '@nestjs/common';
import {
  apiRoutes,
  type CardExportQuery,
  type CardTransactionsQuery,
  type CoinExportQuery,
  type CoinTransactionsQuery,
  type SummaryQuery,
} from '@wv/contracts';
import type { Response } from 'express';
import type { Actor } from '../common/actor.js';
import { CurrentActor, Input, Route } from '../common/route.decorator.js';
import { SalesSummaryService } from './sales-summary.service.js';
import { TransactionExportService } from './transaction-export.service.js';
import { TransactionService } from './transaction.service.js';

type MachineParams = { machineId: string };

@Controller()
export class SalesViewController {
  constructor(
    private readonly summaries: SalesSummaryService,
    private readonly transactions: TransactionService,
    private readonly exports: TransactionExportService,
  ) {}

  @Route(apiRoutes.dailySummary)
  daily(@CurrentActor() actor: Actor, @Input('query') q: SummaryQuery) {
    return this.summaries.daily(actor, q.date);
  }

  @Route(apiRoutes.monthlySummary)
  monthly(@CurrentActor() actor: Actor, @Input('query') q: SummaryQuery) {
    return this.summaries.monthly(actor, q.date);
  }

  @Route(apiRoutes.fleetOverview)
  overview(@CurrentActor() actor: Actor, @Input('query') q: SummaryQuery) {
    return this.summaries.overview(actor, q.date);
  }

  @Route(apiRoutes.recentSales)
  recent(@CurrentActor() actor: Actor, @Input('query') q: { limit: number }) {
    return this.summaries.recentSales(actor, q.limit);
  }

  @Route(apiRoutes.cardTransactions)
  card(@CurrentActor() actor: Actor, @Input('params') p: MachineParams, @Input('query') q: CardTransactionsQuery) {
    return this.transactions.cardPage(actor, p.machineId, q);
  }

  @Route(apiRoutes.coinTransactions)
  coin(@CurrentActor() actor: Actor, @Input('params') p: MachineParams, @Input('query') q: CoinTransactionsQuery) {
    return this.transactions.coinPage(actor, p.machineId, q);
  }

  /** The file streams straight to the response; the guard and input parsing ran before (@Route). */
  @Route(apiRoutes.cardTransactionsExport)
  cardExport(
    @CurrentActor() actor: Actor,
    @Input('params') p: MachineParams,
    @Input('query') q: CardExportQuery,
    @Res() res: Response,
  ) {
    return this.exports.stream(actor, p.machineId, 'card', q, res);
  }

  @Route(apiRoutes.coinTransactionsExport)
  coinExport(
    @CurrentActor() actor: Actor,
    @Input('params') p: MachineParams,
    @Input('query') q: CoinExportQuery,
    @Res() res: Response,
  ) {
    return this.exports.stream(actor, p.machineId, 'coin', q, res);
  }
}
