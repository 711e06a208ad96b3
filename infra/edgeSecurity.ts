import * as gcp from '@pulumi/gcp';
import type * as pulumi from '@pulumi/pulumi';
import type { StackConfig } from './config';

/**
 * The distributed first line of rate limiting: an external HTTPS load balancer (serverless NEG to
 * the Cloud Run service) with a Cloud Armor policy that throttles each client IP across every
 * instance. The service's own per-instance limits (src/http/armour/rateLimits.ts) stay as the
 * second line. The rules use the same three classes as the service: jobs, quotes, everything else.
 */
export interface Edge {
  readonly policy: gcp.compute.SecurityPolicy;
  readonly address: gcp.compute.GlobalAddress;
  readonly forwardingRule: gcp.compute.GlobalForwardingRule;
}

/** Cloud Armor accepts only some windows; one minute matches the service's own limits. */
const WINDOW_SEC = 60;
const DEFAULT_RULE_PRIORITY = 2147483647;

function throttle(
  priority: number,
  description: string,
  perMinute: number,
  match: gcp.types.input.compute.SecurityPolicyRuleMatch,
) {
  return {
    priority,
    description,
    action: 'throttle',
    match,
    rateLimitOptions: {
      enforceOnKey: 'IP',
      conformAction: 'allow',
      exceedAction: 'deny(429)',
      rateLimitThreshold: { count: perMinute, intervalSec: WINDOW_SEC },
    },
  };
}

export function createEdge(c: StackConfig, service: gcp.cloudrunv2.Service, dependsOn: pulumi.Resource[]): Edge {
  const edge = c.edge;
  if (!edge || !c.domainName)
    throw new Error('createEdge needs edgeSecurity and DOMAIN_NAME (readStackConfig checks both)');
  const name = (suffix: string) => `${c.serviceName}-${suffix}`;
  const policy = new gcp.compute.SecurityPolicy(
    'edge-policy',
    {
      project: c.project,
      name: name('edge'),
      description: 'Per-client-IP rate limits in front of the pools API',
      type: 'CLOUD_ARMOR',
      rules: [
        throttle(1000, 'job endpoints', edge.jobsPerMinute, {
          expr: {
            expression:
              "request.method == 'POST' && request.path.lower().matches('^/(pools/[^/]+/update|tokens/update)/?$')",
          },
        }),
        throttle(1100, 'quotes (/sor, /order)', edge.quotesPerMinute, {
          expr: { expression: "request.path.lower().matches('^/(sor|order)(/|$)')" },
        }),
        throttle(1200, 'everything else', edge.readsPerMinute, {
          versionedExpr: 'SRC_IPS_V1',
          config: { srcIpRanges: ['*'] },
        }),
        {
          priority: DEFAULT_RULE_PRIORITY,
          description: 'default',
          action: 'allow',
          match: { versionedExpr: 'SRC_IPS_V1', config: { srcIpRanges: ['*'] } },
        },
      ],
    },
    { dependsOn },
  );
  const neg = new gcp.compute.RegionNetworkEndpointGroup('api-neg', {
    project: c.project,
    region: c.region,
    name: name('neg'),
    networkEndpointType: 'SERVERLESS',
    cloudRun: { service: service.name },
  });
  const backend = new gcp.compute.BackendService('api-backend', {
    project: c.project,
    name: name('backend'),
    loadBalancingScheme: 'EXTERNAL_MANAGED',
    protocol: 'HTTPS',
    backends: [{ group: neg.id }],
    securityPolicy: policy.id,
  });
  const urlMap = new gcp.compute.URLMap('api-urlmap', {
    project: c.project,
    name: name('urlmap'),
    defaultService: backend.id,
  });
  const cert = new gcp.compute.ManagedSslCertificate('api-cert', {
    project: c.project,
    name: name('cert'),
    managed: { domains: [c.domainName] },
  });
  const proxy = new gcp.compute.TargetHttpsProxy('api-https-proxy', {
    project: c.project,
    name: name('https-proxy'),
    urlMap: urlMap.id,
    sslCertificates: [cert.id],
  });
  const address = new gcp.compute.GlobalAddress(
    'api-address',
    { project: c.project, name: name('address') },
    { dependsOn },
  );
  const forwardingRule = new gcp.compute.GlobalForwardingRule('api-https', {
    project: c.project,
    name: name('https'),
    target: proxy.id,
    ipAddress: address.address,
    portRange: '443',
    loadBalancingScheme: 'EXTERNAL_MANAGED',
  });
  return { policy, address, forwardingRule };
}
