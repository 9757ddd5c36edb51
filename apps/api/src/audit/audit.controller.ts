import { Controller } from '@nestjs/common';
import { apiRoutes, type AuditQuery } from '@wv/contracts';
import { Input, Route } from '../common/route.decorator.js';
import { AuditService } from './audit.service.js';

@Controller()
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Route(apiRoutes.audit)
  list(@Input('query') query: AuditQuery) {
    return this.audit.list(query);
  }
}
