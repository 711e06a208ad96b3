import * as gcp from '@pulumi/gcp';
import type * as pulumi from '@pulumi/pulumi';

/** Docker repository for the service image; `imageBase` is what `docker push` targets. */
export function createRegistry(project: string, region: string, serviceName: string, dependsOn: pulumi.Resource[]) {
  const repository = new gcp.artifactregistry.Repository(
    'images',
    {
      project,
      location: region,
      repositoryId: serviceName,
      format: 'DOCKER',
      description: 'Balancer pools API images',
    },
    { dependsOn },
  );
  const imageBase = repository.repositoryId.apply((id) => `${region}-docker.pkg.dev/${project}/${id}/api`);
  return { repository, imageBase };
}
