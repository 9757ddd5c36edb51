import { espIdParamSchema } from '../common/common.schema.js';
import {
  blockCardRequestSchema,
  cardLimitsRequestSchema,
  replaceCardRequestSchema,
} from '../card/card-control.schema.js';
import { cardIdParamSchema, cardRowSchema } from '../ledger/ledger.schema.js';
import { machineSyncSchema } from '../sequence/sequence.schema.js';
import { route, type RouteDef } from './route-def.js';

/**
 * Selling offline: what the server holds of a machine's sales, and the card controls the machines'
 * card lists follow (docs/rest-api.md, "Selling offline").
 */
export const offlineSalesRoutes = {
  machineSync: route({
    method: 'GET',
    path: '/machines/:espId/sync',
    access: ['admin', 'manager', 'attendant'],
    summary: 'The machine’s highest seq, the seq ranges never received, its queued sales and card list versions',
    tag: 'sales',
    status: 200,
    params: espIdParamSchema,
    response: machineSyncSchema,
  }),
  blockCard: route({
    method: 'POST',
    path: '/cards/:card_id/block',
    access: ['admin', 'manager', 'attendant'],
    summary: 'Block a card: the machines’ lists follow; sales made with it anyway are kept and flagged',
    tag: 'cards',
    status: 200,
    params: cardIdParamSchema,
    body: blockCardRequestSchema,
    response: cardRowSchema,
  }),
  unblockCard: route({
    method: 'POST',
    path: '/cards/:card_id/unblock',
    access: ['admin', 'manager', 'attendant'],
    summary: 'Unblock a blocked card',
    tag: 'cards',
    status: 200,
    params: cardIdParamSchema,
    response: cardRowSchema,
  }),
  replaceCard: route({
    method: 'POST',
    path: '/cards/:card_id/replace',
    access: ['admin', 'manager', 'attendant'],
    summary: 'Issue a new card to the same holder with the old card’s balance; the old card is blocked',
    tag: 'cards',
    status: 201,
    params: cardIdParamSchema,
    body: replaceCardRequestSchema,
    response: cardRowSchema,
  }),
  cardLimits: route({
    method: 'PUT',
    path: '/cards/:card_id/limits',
    access: ['admin', 'manager'],
    summary: 'Set or clear a card’s daily limit of litres',
    tag: 'cards',
    status: 200,
    params: cardIdParamSchema,
    body: cardLimitsRequestSchema,
    response: cardRowSchema,
  }),
} as const satisfies Record<string, RouteDef>;
