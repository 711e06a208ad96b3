import * as gcp from '@pulumi/gcp';

/** Google APIs the stack uses; enabling is idempotent and they stay on when the stack is destroyed. */
export const REQUIRED_APIS = [
  'artifactregistry.googleapis.com',
  'firestore.googleapis.com',
  'run.googleapis.com',
  'cloudscheduler.googleapis.com',
  'cloudtasks.googleapis.com',
  'secretmanager.googleapis.com',
  'iam.googleapis.com',
] as const;

export function enableApis(project: string, edge: boolean): gcp.projects.Service[] {
  return [...REQUIRED_APIS, ...(edge ? ['compute.googleapis.com'] : [])].map(
    (service) =>
      new gcp.projects.Service(`api-${service.split('.')[0]}`, { project, service, disableOnDestroy: false }),
  );
}
