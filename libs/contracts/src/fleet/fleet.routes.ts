import { espIdParamSchema } from '../common/common.schema.js';
import { route, type RouteDef } from '../routes/route-def.js';
import {
  fleetHeadlineSchema,
  fleetMachinesResponseSchema,
  machineCoordinatesBodySchema,
  machineCoordinatesSchema,
} from './fleet.schema.js';

/** The fleet dashboard of admins and managers (docs/rest-api.md, "Fleet dashboard"). */
export const fleetRoutes = {
  fleetMachines: route({
    method: 'GET',
    path: '/fleet/overview',
    access: ['admin', 'manager'],
    summary: 'Every machine in scope with today’s figures, a 7-day revenue trend and its active alarms',
    tag: 'fleet',
    status: 200,
    response: fleetMachinesResponseSchema,
  }),
  fleetHeadline: route({
    method: 'GET',
    path: '/fleet/headline',
    access: ['admin', 'manager'],
    summary: 'Today so far against yesterday and the same weekday last week at the same time of day',
    tag: 'fleet',
    status: 200,
    response: fleetHeadlineSchema,
  }),
  getMachineCoordinates: route({
    method: 'GET',
    path: '/machines/:espId/coordinates',
    access: ['admin', 'manager'],
    summary: 'Where a machine stands, for the fleet map',
    tag: 'fleet',
    status: 200,
    params: espIdParamSchema,
    response: machineCoordinatesSchema,
  }),
  putMachineCoordinates: route({
    method: 'PUT',
    path: '/machines/:espId/coordinates',
    access: ['admin', 'manager'],
    summary: 'Sets or clears where a machine stands',
    tag: 'fleet',
    status: 200,
    params: espIdParamSchema,
    body: machineCoordinatesBodySchema,
    response: machineCoordinatesSchema,
  }),
} as const satisfies Record<string, RouteDef>;
