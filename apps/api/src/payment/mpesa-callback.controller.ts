import { Controller } from '@nestjs/common';
import { apiRoutes, type C2bPayment, type StkCallback } from '@wv/contracts';
import { Input, Route } from '../common/route.decorator.js';
import { MpesaCallbackService } from './mpesa-callback.service.js';

/** Daraja's calls to this server: open to the internet, guarded by the path's secret token (the service checks it). */
@Controller()
export class MpesaCallbackController {
  constructor(private readonly callbacks: MpesaCallbackService) {}

  @Route(apiRoutes.mpesaStkCallback)
  stk(@Input('params') params: { token: string }, @Input('body') body: StkCallback) {
    return this.callbacks.stkCallback(params.token, body);
  }

  @Route(apiRoutes.mpesaC2bValidation)
  validation(@Input('params') params: { token: string }, @Input('body') body: C2bPayment) {
    return this.callbacks.c2bValidation(params.token, body);
  }

  @Route(apiRoutes.mpesaC2bConfirmation)
  confirmation(@Input('params') params: { token: string }, @Input('body') body: C2bPayment) {
    return this.callbacks.c2bConfirmation(params.token, body);
  }
}
