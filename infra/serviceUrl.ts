import * as gcp from '@pulumi/gcp';
import * as pulumi from '@pulumi/pulumi';

/**
 * Cloud Run's deterministic URL, `https://<service>-<project number>.<region>.run.app`. Known
 * before the service exists, so the service can be told its own URL (the audience its job
 * endpoints require) without a dependency cycle.
 */
export function deterministicServiceUrl(project: string, region: string, serviceName: string): pulumi.Output<string> {
  const number = gcp.organizations.getProjectOutput({ projectId: project }).number;
  return pulumi.interpolate`https://${serviceName}-${number}.${region}.run.app`;
}
