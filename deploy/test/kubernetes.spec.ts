import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { apiRoutes } from '@wv/contracts';
import { parseAllDocuments } from 'yaml';
import { CONFIG_VARIABLES, loadConfig } from '../../apps/api/src/config/app-config.js';

/**
 * The Kubernetes manifests (deploy/kubernetes, docs/operations.md "Kubernetes"), checked offline: each object against
 * the Kubernetes API's own schema (kubernetes-models), then against the program: roles, ports, probe paths, variables
 * and the metric the autoscaler reads must be ones the program has. The schemas check types and required fields, not
 * unknown ones: `kubectl apply --dry-run=server -k deploy/kubernetes` on a cluster checks those too.
 */
const DIR = new URL('../kubernetes/', import.meta.url);

type Obj = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  spec?: any;
  data?: Record<string, string>;
};

const kustomization = parseAllDocuments(readFileSync(new URL('kustomization.yaml', DIR), 'utf8'))[0]!.toJS() as {
  resources: string[];
};
const files = kustomization.resources;
const objects: Obj[] = files.flatMap((file) =>
  parseAllDocuments(readFileSync(new URL(file, DIR), 'utf8')).map((doc) => {
    expect(doc.errors).toEqual([]);
    return doc.toJS() as Obj;
  }),
);
const byKind = (kind: string) => objects.filter((o) => o.kind === kind);
const named = (kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name);

/** The kubernetes-models class of an object, by its apiVersion and kind. */
async function modelOf(o: Obj): Promise<new (data: unknown) => { validate(): void }> {
  const [group, version] = o.apiVersion.includes('/') ? o.apiVersion.split('/') : [null, o.apiVersion];
  const module = (await import(
    group ? `kubernetes-models/${group}/${version}` : `kubernetes-models/${version}`
  )) as Record<string, new (data: unknown) => { validate(): void }>;
  const model = module[o.kind];
  if (!model) throw new Error(`no schema for ${o.apiVersion} ${o.kind}`);
  return model;
}

const containers = (d: Obj) => d.spec.template.spec.containers as any[];
const envOf = (c: any) => new Map<string, string>((c.env ?? []).map((e: any) => [e.name, e.value]));
const matches = (selector: Record<string, string>, labels: Record<string, string> = {}) =>
  Object.entries(selector).every(([k, v]) => labels[k] === v);

describe('Kubernetes manifests', () => {
  it('lists every manifest of the folder in the kustomization, and nothing that is missing', () => {
    const yamls = readdirSync(DIR).filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml');
    expect([...files].sort()).toEqual(yamls.sort());
  });

  it('holds only objects that the Kubernetes API schema accepts', async () => {
    expect(objects.length).toBeGreaterThanOrEqual(10);
    for (const o of objects) {
      const Model = await modelOf(o);
      expect(() => new Model(o).validate()).not.toThrow();
    }
  });

  it('rejects an object the schema does not accept (the check can fail)', async () => {
    const deployment = structuredClone(named('Deployment', 'water-vending-api')!);
    deployment.spec.replicas = 'two';
    const Model = await modelOf(deployment);
    expect(() => new Model(deployment).validate()).toThrow();
  });

  it('runs one Deployment per role, each role once', () => {
    const roles = byKind('Deployment').map((d) => envOf(containers(d)[0]).get('APP_ROLES'));
    expect(roles.sort()).toEqual(['api', 'broker', 'worker']);
  });

  it('sets only variables the program reads, from its ConfigMap and Secret', () => {
    const config = named('ConfigMap', 'water-vending-config')!;
    for (const key of Object.keys(config.data!)) expect(CONFIG_VARIABLES).toContain(key);
    for (const d of byKind('Deployment')) {
      for (const c of containers(d)) {
        for (const name of envOf(c).keys()) expect(CONFIG_VARIABLES).toContain(name);
        expect(c.envFrom).toEqual([
          { configMapRef: { name: 'water-vending-config' } },
          { secretRef: { name: 'water-vending-secrets' } },
        ]);
      }
    }
    // Production: JWT_SECRET required, a durable Redis required.
    expect(config.data!.NODE_ENV).toBe('production');
  });

  it('probes the health endpoints the program serves, on ports its containers declare', () => {
    const paths = new Set([`/api${apiRoutes.liveness.path}`, `/api${apiRoutes.health.path}`]);
    for (const d of byKind('Deployment')) {
      for (const c of containers(d)) {
        const ports = new Map<string, number>(c.ports.map((p: any) => [p.name, p.containerPort]));
        const env = envOf(c);
        for (const kind of ['startupProbe', 'livenessProbe', 'readinessProbe']) {
          const probe = c[kind];
          if (!probe) continue;
          const action = probe.httpGet ?? probe.tcpSocket;
          expect(ports.has(action.port)).toBe(true);
          if (probe.httpGet) expect(paths).toContain(probe.httpGet.path);
        }
        expect(c.livenessProbe?.httpGet?.path).toBe(`/api${apiRoutes.liveness.path}`);
        // The program listens where the container says: PORT for api and broker, HEALTH_PORT for a worker.
        const role = env.get('APP_ROLES');
        if (role === 'worker') expect(ports.get('health')).toBe(Number(env.get('HEALTH_PORT')));
        else expect(ports.get('http')).toBe(Number(env.get('PORT')));
        if (role === 'broker') {
          expect(ports.get('mqtt')).toBe(Number(named('ConfigMap', 'water-vending-config')!.data!.MQTT_PORT));
          // A database outage must not take brokers out of the Service: machines sell through it.
          expect(c.readinessProbe.tcpSocket?.port).toBe('mqtt');
        }
      }
    }
  });

  it('runs every container unprivileged', () => {
    for (const d of byKind('Deployment')) {
      expect(d.spec.template.spec.securityContext).toMatchObject({ runAsNonRoot: true });
      for (const c of containers(d)) {
        expect(c.securityContext).toMatchObject({
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
        });
        expect(c.resources.limits.memory).toBeDefined();
      }
    }
  });

  it('points every Service, budget and autoscaler at pods and Deployments that exist', () => {
    const pods = byKind('Deployment').map((d) => ({
      name: d.metadata.name,
      labels: d.spec.template.metadata.labels,
      d,
    }));
    for (const s of byKind('Service')) {
      const selected = pods.filter((p) => matches(s.spec.selector, p.labels));
      expect(selected.length).toBe(1);
      const portNames = containers(selected[0]!.d).flatMap((c) => c.ports.map((p: any) => p.name));
      for (const port of s.spec.ports) expect(portNames).toContain(port.targetPort);
    }
    for (const d of byKind('Deployment'))
      expect(matches(d.spec.selector.matchLabels, d.spec.template.metadata.labels)).toBe(true);
    const [pdb] = byKind('PodDisruptionBudget');
    expect(pods.filter((p) => matches(pdb!.spec.selector.matchLabels, p.labels)).map((p) => p.name)).toEqual([
      'water-vending-broker',
    ]);
    for (const hpa of byKind('HorizontalPodAutoscaler')) {
      expect(named('Deployment', hpa.spec.scaleTargetRef.name)).toBeDefined();
    }
    for (const rule of named('Ingress', 'water-vending')!.spec.rules) {
      for (const path of rule.http.paths) expect(named('Service', path.backend.service.name)).toBeDefined();
    }
  });

  it('scales workers on the queue depth the program publishes', () => {
    const hpa = named('HorizontalPodAutoscaler', 'water-vending-worker')!;
    expect(
      named('Deployment', hpa.spec.scaleTargetRef.name)!.spec.template.metadata.labels['app.kubernetes.io/component'],
    ).toBe('worker');
    const metric = hpa.spec.metrics[0].external.metric.name;
    const metricsSource = readFileSync(
      new URL('../../apps/api/src/observability/metrics.service.ts', import.meta.url),
      'utf8',
    );
    expect(metricsSource).toContain(`name: '${metric}'`);
  });

  it('routes MQTT over WebSocket to the brokers at the path they serve it on', () => {
    const ingress = named('Ingress', 'water-vending')!;
    const mqtt = ingress.spec.rules[0].http.paths.find((p: any) => p.backend.service.name === 'water-vending-broker');
    expect(mqtt.path).toBe(loadConfig({}).mqtt.wsPath);
  });
});
