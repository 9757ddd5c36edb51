/**
 * The device topic ACL (docs/device-protocol.md, "Topics"), as pure functions over exact topic strings.
 *
 * A device may touch only the handful of topics built for its own id, so the rules compare whole
 * strings rather than patterns: a wildcard filter can never equal an allowed topic, which refuses
 * `#` and `+` subscriptions without a separate matcher that could drift from the topic builders.
 */
import {
  buildAssignmentTopic,
  buildCardsAckTopic,
  buildCardsDeltaTopic,
  buildCardsTopic,
  buildConfigAckTopic,
  buildConfigTopic,
  buildHelloTopic,
  buildMachinePrefix,
  buildSalesAckTopic,
  buildSalesTopic,
  buildStatusTopic,
  buildTelemetryTopic,
  TOPIC_ROOT,
} from '@wv/contracts';

export type AclSubject = { kind: 'machine'; espId: string } | { kind: 'provisioning'; mac: string };

/** What an allowed device publish is, so the broker knows where to route it. */
export type DevicePublishKind = 'sales' | 'status' | 'config-ack' | 'telemetry' | 'cards-ack' | 'hello';

export type AclDenial = 'wildcard' | 'foreign-topic' | 'not-allowed';

export type PublishDecision = { allowed: true; kind: DevicePublishKind } | { allowed: false; denial: AclDenial };
export type SubscribeDecision = { allowed: true } | { allowed: false; denial: AclDenial };

/**
 * Built once per subject: a connected device's identity is one object for its session, and this check runs
 * twice for every publish (authorization, then routing), which made building the map a hot spot of ingest
 * (docs/performance.md).
 */
const publishableBySubject = new WeakMap<AclSubject, Map<string, DevicePublishKind>>();

function publishableTopics(subject: AclSubject): Map<string, DevicePublishKind> {
  let topics = publishableBySubject.get(subject);
  if (!topics) publishableBySubject.set(subject, (topics = buildPublishableTopics(subject)));
  return topics;
}

function buildPublishableTopics(subject: AclSubject): Map<string, DevicePublishKind> {
  if (subject.kind === 'provisioning') return new Map([[buildHelloTopic(subject.mac), 'hello']]);
  return new Map<string, DevicePublishKind>([
    [buildSalesTopic(subject.espId), 'sales'],
    [buildStatusTopic(subject.espId), 'status'],
    [buildConfigAckTopic(subject.espId), 'config-ack'],
    [buildTelemetryTopic(subject.espId), 'telemetry'],
    [buildCardsAckTopic(subject.espId), 'cards-ack'],
  ]);
}

/**
 * Every topic the subject may publish and subscribe to, for brokers that enforce the ACL themselves from a list
 * (an external broker's identities, docs/external-mqtt.md).
 */
export function deviceTopics(subject: AclSubject): { publish: string[]; subscribe: string[] } {
  return { publish: [...publishableTopics(subject).keys()], subscribe: subscribableTopics(subject) };
}

function subscribableTopics(subject: AclSubject): string[] {
  if (subject.kind === 'provisioning') return [buildAssignmentTopic(subject.mac)];
  return [
    buildConfigTopic(subject.espId),
    buildSalesAckTopic(subject.espId),
    buildCardsTopic(subject.espId),
    buildCardsDeltaTopic(subject.espId),
  ];
}

function ownPrefix(subject: AclSubject): string {
  return subject.kind === 'machine' ? buildMachinePrefix(subject.espId) : `${TOPIC_ROOT}/provision/${subject.mac}/`;
}

/** Tells "another device's topic" apart from a wrong direction or plain junk, for the log line. */
function denialFor(subject: AclSubject, topic: string): AclDenial {
  if (topic.includes('#') || topic.includes('+')) return 'wildcard';
  if (topic.startsWith(ownPrefix(subject))) return 'not-allowed';
  if (topic.startsWith(`${TOPIC_ROOT}/machines/`) || topic.startsWith(`${TOPIC_ROOT}/provision/`)) {
    return 'foreign-topic';
  }
  return 'not-allowed';
}

export function authorizeDevicePublish(subject: AclSubject, topic: string): PublishDecision {
  const kind = publishableTopics(subject).get(topic);
  return kind ? { allowed: true, kind } : { allowed: false, denial: denialFor(subject, topic) };
}

export function authorizeDeviceSubscribe(subject: AclSubject, topicFilter: string): SubscribeDecision {
  return subscribableTopics(subject).includes(topicFilter)
    ? { allowed: true }
    : { allowed: false, denial: denialFor(subject, topicFilter) };
}
