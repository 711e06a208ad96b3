import * as pulumi from '@pulumi/pulumi';
import { readStackConfig } from './config';
import { createStack } from './stack';

// Entry point for `pulumi up` (run in infra/): configuration in, resources and outputs out.
const gcpConfig = new pulumi.Config('gcp');
const config = new pulumi.Config();

const outputs = createStack(
  readStackConfig({
    project: gcpConfig.require('project'),
    region: gcpConfig.get('region'),
    get: (key) => config.get(key),
    getObject: (key) => config.getObject(key),
  }),
);

export const serviceUrl = outputs.serviceUrl;
export const customDomainUrl = outputs.customDomainUrl;
export const edgeAddress = outputs.edgeAddress;
export const imageRepository = outputs.imageRepository;
export const queue = outputs.queue;
export const runtimeAccount = outputs.runtimeAccount;
export const schedulerAccount = outputs.schedulerAccount;
export const tasksAccount = outputs.tasksAccount;
export const secretIds = outputs.secretIds;
export const schedulerJobs = outputs.schedulerJobs;
export const serviceDeployed = outputs.serviceDeployed;
