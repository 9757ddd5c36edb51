import { Controller } from '@nestjs/common';
import { apiRoutes, type PaginationQuery } from '@wv/contracts';
import { Input, Route } from '../common/route.decorator.js';
import { SaleRestIngestService } from './sale-rest-ingest.service.js';
import { SaleRepository } from './sale.repository.js';

@Controller()
export class SaleController {
  constructor(
    private readonly restIngest: SaleRestIngestService,
    private readonly sales: SaleRepository,
  ) {}

  /** Legacy machines: the device key authenticates; the same pipeline as MQTT. */
  @Route(apiRoutes.ingestSales)
  ingest(@Input('params') params: { espId: string }, @Input('body') body: unknown) {
    return this.restIngest.accept(params.espId, body);
  }

  @Route(apiRoutes.deadLetters)
  deadLetters(@Input('query') query: PaginationQuery) {
    return this.sales.listDeadLetters(query.page, query.limit);
  }
}
