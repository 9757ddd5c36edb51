import { deviceTopics } from '@wv/broker';
import { TOPIC_ROOT } from '@wv/contracts';
import type { DynsecCommand, DynsecControl, DynsecResponse } from './dynsec-control.js';

/** The role this program's own account gets: every protocol topic. */
export const SERVER_ROLE = 'wv-server';
/** Marks the clients this program made, so that drift repair never touches the broker's other accounts. */
export const MACHINE_TEXT_NAME = 'wv machine';
export const machineRole = (espId: string) => `wv-machine-${espId}`;

/**
 * A machine's rights on the broker: the same topics as the embedded broker's ACL (docs/device-protocol.md,
 * "Topics"), as literal topics, so that no wildcard can reach another machine's.
 */
export function machineAcls(espId: string) {
  const topics = deviceTopics({ kind: 'machine', espId });
  return [
    ...topics.publish.map((topic) => ({ acltype: 'publishClientSend', topic, allow: true })),
    ...topics.subscribe.map((topic) => ({ acltype: 'subscribeLiteral', topic, allow: true })),
  ];
}

const exists = (r: DynsecResponse) => /already (exists|has)/i.test(r.error ?? '');
const missing = (r: DynsecResponse) => /not found/i.test(r.error ?? '');

/**
 * Device identities kept in Mosquitto's dynamic-security plugin (docs/external-mqtt.md, "Identities"): one client
 * per machine (username and client id = ESP ID, password = device key) with a role that allows its own topics only,
 * and everything else refused by the default ACL access.
 */
export class DynsecIdentities {
  constructor(private readonly control: DynsecControl) {}

  /**
   * What the program needs on the broker before anything else: its own account may use every protocol topic,
   * and a client without a rule may neither publish nor subscribe. Changed only when missing: Mosquitto ends the
   * sessions of a client whose roles change, this program's own connection among them.
   */
  async ensureBaseline(username: string): Promise<void> {
    const wanted = [
      { acltype: 'publishClientSend', topic: `${TOPIC_ROOT}/#`, allow: true },
      { acltype: 'publishClientReceive', topic: `${TOPIC_ROOT}/#`, allow: true },
      { acltype: 'subscribePattern', topic: `${TOPIC_ROOT}/#`, allow: true },
    ];
    const missing = async () => {
      const [self, role] = await this.control.retried(() =>
        this.control.run([
          { command: 'getClient', username },
          { command: 'getRole', rolename: SERVER_ROLE },
        ]),
      );
      if (self!.error)
        throw new Error(`dynamic security does not know this program's account ${username}: ${self!.error}`);
      const roles = ((self!.data?.client as { roles?: { rolename: string }[] }).roles ?? []).map((r) => r.rolename);
      const acls = ((role!.data?.role as { acls?: { acltype: string; topic: string }[] } | undefined)?.acls ?? []).map(
        (acl) => `${acl.acltype} ${acl.topic}`,
      );
      return {
        role: role!.error !== undefined,
        acls: wanted.filter((acl) => !acls.includes(`${acl.acltype} ${acl.topic}`)),
        grant: !roles.includes(SERVER_ROLE),
      };
    };
    const before = await missing();
    const changes: DynsecCommand[] = [
      ...(before.role ? [{ command: 'createRole', rolename: SERVER_ROLE, acls: wanted }] : []),
      ...(before.role ? [] : before.acls.map((acl) => ({ command: 'addRoleACL', rolename: SERVER_ROLE, ...acl }))),
      ...(before.grant ? [{ command: 'addClientRole', username, rolename: SERVER_ROLE }] : []),
    ];
    if (changes.length) {
      await this.control.applyThroughKick(changes);
      const after = await missing();
      if (after.role || after.acls.length || after.grant) {
        throw new Error(`dynamic security did not give ${username} the role ${SERVER_ROLE}`);
      }
    }
    await this.control.retried(() =>
      this.control.apply([
        {
          command: 'setDefaultACLAccess',
          acls: [
            { acltype: 'publishClientSend', allow: false },
            { acltype: 'subscribe', allow: false },
          ],
        },
      ]),
    );
  }

  /**
   * Gives each machine its key: a new client and role, or, for a client that exists, the new password. Mosquitto
   * ends the sessions of a client whose password changes, so a rotated key cuts the old key's session.
   */
  async setKeys(keys: { espId: string; deviceKey: string }[]): Promise<void> {
    if (keys.length === 0) return;
    await this.control.apply(
      keys.map(({ espId }) => ({ command: 'createRole', rolename: machineRole(espId), acls: machineAcls(espId) })),
      exists,
    );
    const created = await this.control.run(
      keys.map(({ espId, deviceKey }) => ({
        command: 'createClient',
        username: espId,
        password: deviceKey,
        clientid: espId,
        textname: MACHINE_TEXT_NAME,
        roles: [{ rolename: machineRole(espId) }],
      })),
    );
    const rekey: DynsecCommand[] = [];
    created.forEach((response, i) => {
      if (response.error === undefined) return;
      if (!exists(response)) throw new Error(`dynamic security refused createClient: ${response.error}`);
      const { espId, deviceKey } = keys[i]!;
      rekey.push(
        // Ends the sessions that logged in with the old key.
        { command: 'setClientPassword', username: espId, password: deviceKey },
        { command: 'setClientId', username: espId, clientid: espId },
        // Removed first, because adding a role the client has is an error in Mosquitto 2.0.
        { command: 'removeClientRole', username: espId, rolename: machineRole(espId) },
        { command: 'addClientRole', username: espId, rolename: machineRole(espId) },
        { command: 'enableClient', username: espId },
      );
    });
    await this.control.apply(rekey, (r) => r.command === 'removeClientRole');
  }

  /** The clients this program made, with whether each has its machine role. */
  async machineClients(): Promise<{ espId: string; hasRole: boolean }[]> {
    const [listed] = await this.control.apply([{ command: 'listClients', verbose: true, count: -1, offset: 0 }]);
    const clients = (listed!.data?.clients ?? []) as {
      username: string;
      textname?: string;
      roles?: { rolename: string }[];
    }[];
    return clients
      .filter((c) => c.textname === MACHINE_TEXT_NAME)
      .map((c) => ({
        espId: c.username,
        hasRole: (c.roles ?? []).some((r) => r.rolename === machineRole(c.username)),
      }));
  }

  /** Deletes machines' clients and roles (the machines are gone from the database). */
  async remove(espIds: string[]): Promise<void> {
    await this.control.apply(
      espIds.flatMap((espId) => [
        { command: 'deleteClient', username: espId },
        { command: 'deleteRole', rolename: machineRole(espId) },
      ]),
      missing,
    );
  }

  /** Recreates the role of machines whose client lost it (or whose role was deleted). */
  async restoreRoles(espIds: string[]): Promise<void> {
    await this.control.apply(
      espIds.flatMap((espId) => [
        { command: 'createRole', rolename: machineRole(espId), acls: machineAcls(espId) },
        { command: 'addClientRole', username: espId, rolename: machineRole(espId) },
      ]),
      exists,
    );
  }
}
