import { describe, expect, it } from '@jest/globals';
import {
  buildAssignmentTopic,
  buildConfigAckTopic,
  buildConfigTopic,
  buildHelloTopic,
  buildSalesAckTopic,
  buildSalesTopic,
  buildStatusTopic,
} from '@wv/contracts';
import { authorizeDevicePublish, authorizeDeviceSubscribe, type AclSubject } from '../src/topic-acl.js';

const machine: AclSubject = { kind: 'machine', espId: 'ESP001' };
const provisioning: AclSubject = { kind: 'provisioning', mac: 'A1B2C3D4E5F6' };

describe('topic ACL for machines', () => {
  it('lets a machine publish its own sales, status and config acks, and says which is which', () => {
    expect(authorizeDevicePublish(machine, buildSalesTopic('ESP001'))).toEqual({ allowed: true, kind: 'sales' });
    expect(authorizeDevicePublish(machine, buildStatusTopic('ESP001'))).toEqual({ allowed: true, kind: 'status' });
    expect(authorizeDevicePublish(machine, buildConfigAckTopic('ESP001'))).toEqual({
      allowed: true,
      kind: 'config-ack',
    });
  });

  it("refuses a machine publishing under another machine's topics", () => {
    expect(authorizeDevicePublish(machine, buildSalesTopic('ESP002'))).toEqual({
      allowed: false,
      denial: 'foreign-topic',
    });
  });

  it('refuses a machine publishing on its own server-to-device topics', () => {
    for (const topic of [buildConfigTopic('ESP001'), buildSalesAckTopic('ESP001')]) {
      expect(authorizeDevicePublish(machine, topic)).toEqual({ allowed: false, denial: 'not-allowed' });
    }
  });

  it('refuses topics outside the protocol and near misses of allowed ones', () => {
    for (const topic of [
      'hello',
      'wv/v1/machines/ESP001',
      'wv/v1/machines/ESP001/sales/',
      'wv/v1/machines/ESP0011/sales',
    ]) {
      expect(authorizeDevicePublish(machine, topic).allowed).toBe(false);
    }
    expect(authorizeDevicePublish(machine, '$SYS/broker/heartbeat').allowed).toBe(false);
  });

  it('lets a machine subscribe to its own config and sales acks only', () => {
    expect(authorizeDeviceSubscribe(machine, buildConfigTopic('ESP001'))).toEqual({ allowed: true });
    expect(authorizeDeviceSubscribe(machine, buildSalesAckTopic('ESP001'))).toEqual({ allowed: true });
    expect(authorizeDeviceSubscribe(machine, buildConfigTopic('ESP002'))).toEqual({
      allowed: false,
      denial: 'foreign-topic',
    });
    expect(authorizeDeviceSubscribe(machine, buildSalesTopic('ESP001'))).toEqual({
      allowed: false,
      denial: 'not-allowed',
    });
  });

  it('refuses every wildcard subscription, even one that would only cover its own topics', () => {
    for (const filter of [
      '#',
      '+/#',
      'wv/v1/machines/+/config',
      'wv/v1/machines/ESP001/#',
      'wv/v1/machines/ESP001/+',
    ]) {
      expect(authorizeDeviceSubscribe(machine, filter)).toEqual({ allowed: false, denial: 'wildcard' });
    }
  });
});

describe('topic ACL for provisioning clients', () => {
  it('lets a provisioning client publish its hello and subscribe to its assignment', () => {
    expect(authorizeDevicePublish(provisioning, buildHelloTopic('A1B2C3D4E5F6'))).toEqual({
      allowed: true,
      kind: 'hello',
    });
    expect(authorizeDeviceSubscribe(provisioning, buildAssignmentTopic('A1B2C3D4E5F6'))).toEqual({ allowed: true });
  });

  it("refuses another MAC's provisioning topics and every machine topic", () => {
    expect(authorizeDevicePublish(provisioning, buildHelloTopic('FFFFFFFFFFFF')).allowed).toBe(false);
    expect(authorizeDeviceSubscribe(provisioning, buildAssignmentTopic('FFFFFFFFFFFF'))).toEqual({
      allowed: false,
      denial: 'foreign-topic',
    });
    expect(authorizeDevicePublish(provisioning, buildSalesTopic('A1B2C3D4E5F6')).allowed).toBe(false);
    expect(authorizeDeviceSubscribe(provisioning, 'wv/v1/provision/+/assignment')).toEqual({
      allowed: false,
      denial: 'wildcard',
    });
  });

  it('refuses a provisioning client publishing on its own assignment topic', () => {
    expect(authorizeDevicePublish(provisioning, buildAssignmentTopic('A1B2C3D4E5F6'))).toEqual({
      allowed: false,
      denial: 'not-allowed',
    });
  });
});
