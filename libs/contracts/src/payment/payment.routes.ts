import { z } from 'zod';
import { cardIdParamSchema } from '../ledger/ledger.schema.js';
import { page, route } from '../routes/route-def.js';
import {
  c2bPaymentSchema,
  callbackTokenParamSchema,
  mobileTopUpRequestSchema,
  mobileTopUpResponseSchema,
  paymentIdParamSchema,
  paymentListQuerySchema,
  paymentMatchRequestSchema,
  paymentSchema,
  statementImportResponseSchema,
  stkCallbackSchema,
} from './payment.schema.js';

/** Daraja's acknowledgement of a callback. */
const darajaAck = z.object({ ResultCode: z.union([z.number(), z.string()]), ResultDesc: z.string() });

/**
 * Card top-ups by mobile money (docs/mobile-money.md). The callbacks are public: Daraja calls them,
 * and they carry the secret MPESA_CALLBACK_TOKEN in the path (a wrong one is 404; a malformed body is
 * 400 whatever the token, which tells nothing about it).
 */
export const paymentRoutes = {
  mobileTopUp: route({
    method: 'POST',
    path: '/cards/:card_id/mobile-top-up',
    access: ['admin', 'manager', 'attendant'],
    summary: 'Ask the payer’s phone for an M-Pesa payment (STK push) that tops the card up once paid',
    tag: 'payments',
    status: 202,
    params: cardIdParamSchema,
    body: mobileTopUpRequestSchema,
    response: mobileTopUpResponseSchema,
  }),
  mpesaStkCallback: route({
    method: 'POST',
    path: '/payments/mpesa/:token/stk-callback',
    access: ['public'],
    summary: 'Daraja’s STK push callback',
    tag: 'payments',
    status: 200,
    params: callbackTokenParamSchema,
    body: stkCallbackSchema,
    response: darajaAck,
  }),
  mpesaC2bValidation: route({
    method: 'POST',
    path: '/payments/mpesa/:token/c2b/validation',
    access: ['public'],
    summary: 'Daraja’s C2B validation of a paybill payment (the account number is the card ID)',
    tag: 'payments',
    status: 200,
    params: callbackTokenParamSchema,
    body: c2bPaymentSchema,
    response: darajaAck,
  }),
  mpesaC2bConfirmation: route({
    method: 'POST',
    path: '/payments/mpesa/:token/c2b/confirmation',
    access: ['public'],
    summary: 'Daraja’s C2B confirmation of a paybill payment',
    tag: 'payments',
    status: 200,
    params: callbackTokenParamSchema,
    body: c2bPaymentSchema,
    response: darajaAck,
  }),
  listPayments: route({
    method: 'GET',
    path: '/payments',
    access: ['admin', 'manager', 'attendant'],
    summary: 'Payments of the cards in the caller’s scope, newest first (admins also see unmatched ones)',
    tag: 'payments',
    status: 200,
    query: paymentListQuerySchema,
    response: page(paymentSchema),
  }),
  getPayment: route({
    method: 'GET',
    path: '/payments/:paymentId',
    access: ['admin', 'manager', 'attendant'],
    summary: 'One payment',
    tag: 'payments',
    status: 200,
    params: paymentIdParamSchema,
    response: paymentSchema,
  }),
  matchPayment: route({
    method: 'POST',
    path: '/payments/:paymentId/match',
    access: ['admin'],
    summary: 'Credit an unmatched payment to a card',
    tag: 'payments',
    status: 200,
    params: paymentIdParamSchema,
    body: paymentMatchRequestSchema,
    response: paymentSchema,
  }),
  importStatement: route({
    method: 'POST',
    path: '/payments/statement',
    access: ['admin'],
    summary:
      'Reconcile an M-Pesa organisation statement (multipart field `file`, CSV or xlsx): receipts never seen are credited or become unmatched',
    tag: 'payments',
    status: 200,
    response: statementImportResponseSchema,
  }),
};
