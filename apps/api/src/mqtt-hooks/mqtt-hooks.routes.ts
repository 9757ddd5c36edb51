import { route, type RouteDef } from '@wv/contracts';
import { z } from 'zod';

/**
 * What an external broker sends to the HTTP hooks (docs/external-mqtt.md, "HTTP hooks (EMQX and
 * others)"): the fields its body template names, as strings. Only these fields, as on every route.
 */
const text = (max: number) => z.string().max(max, `must be at most ${max} characters`);

export const mqttAuthRequestSchema = z
  .object({
    clientid: text(256),
    username: text(256),
    password: text(1024),
    /** The device's address as the broker sees it; new MACs are admitted per address. */
    peerhost: text(256).optional(),
  })
  .strict();
export type MqttAuthRequest = z.infer<typeof mqttAuthRequestSchema>;

export const mqttAclRequestSchema = z
  .object({
    clientid: text(256),
    username: text(256),
    // MQTT 3.1.1 section 1.5.3: a topic is at most 65535 bytes.
    topic: text(65_535),
    action: z.enum(['publish', 'subscribe'], { error: 'must be publish or subscribe' }),
  })
  .strict();
export type MqttAclRequest = z.infer<typeof mqttAclRequestSchema>;

/** EMQX 5's answer format: `result`, and `is_superuser` for authentication (never true here). */
export const mqttHookResponseSchema = z.object({
  result: z.enum(['allow', 'deny']),
  is_superuser: z.literal(false).optional(),
});
export type MqttHookResponse = z.infer<typeof mqttHookResponseSchema>;

/**
 * Called by the broker with `Authorization: Bearer <MQTT_HOOK_TOKEN>` (access `mqtt-hook`): the access guard checks it
 * before the body is read, so a caller without it learns nothing about the input.
 */
export const mqttHookRoutes = {
  auth: route({
    method: 'POST',
    path: '/mqtt/auth',
    access: ['mqtt-hook'],
    summary: 'External broker: may this MQTT client connect? (bearer MQTT_HOOK_TOKEN)',
    tag: 'mqtt',
    status: 200,
    body: mqttAuthRequestSchema,
    response: mqttHookResponseSchema,
  }),
  acl: route({
    method: 'POST',
    path: '/mqtt/acl',
    access: ['mqtt-hook'],
    summary: 'External broker: may this MQTT client publish or subscribe here? (bearer MQTT_HOOK_TOKEN)',
    tag: 'mqtt',
    status: 200,
    body: mqttAclRequestSchema,
    response: mqttHookResponseSchema,
  }),
} as const satisfies Record<string, RouteDef>;
