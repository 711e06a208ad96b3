import * as pulumi from '@pulumi/pulumi';

/**
 * Pulumi's own unit-test mocks: every resource the program registers is recorded with its inputs,
 * and the provider-computed outputs the program reads (account emails, project number) are filled
 * in the way Google fills them.
 */
export interface RecordedResource {
  readonly type: string;
  readonly name: string;
  readonly inputs: Record<string, unknown>;
}

export const PROJECT_NUMBER = '123456789012';
/** The address Google would reserve for the load balancer. */
export const EDGE_ADDRESS = '203.0.113.7';

export function recordResources(): RecordedResource[] {
  const recorded: RecordedResource[] = [];
  pulumi.runtime.setMocks(
    {
      newResource(args) {
        const inputs = args.inputs as Record<string, unknown>;
        recorded.push({ type: args.type, name: args.name, inputs });
        const state: Record<string, unknown> = { ...inputs };
        if (args.type === 'gcp:serviceaccount/account:Account') {
          state.email = `${String(inputs.accountId)}@${String(inputs.project)}.iam.gserviceaccount.com`;
          state.name = `projects/${String(inputs.project)}/serviceAccounts/${String(state.email)}`;
        }
        if (args.type === 'gcp:compute/globalAddress:GlobalAddress') state.address = EDGE_ADDRESS;
        return { id: `${args.name}-id`, state };
      },
      call(args) {
        if (args.token === 'gcp:organizations/getProject:getProject') {
          return { ...args.inputs, number: PROJECT_NUMBER };
        }
        return args.inputs;
      },
    },
    'balancer-pools',
    'test',
    false,
  );
  return recorded;
}

export function valueOf<T>(o: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => o.apply((v) => resolve(v)));
}

/** Registration is asynchronous: wait until no new resource has appeared for a while. */
export async function settle(recorded: RecordedResource[]): Promise<void> {
  let quiet = 0;
  let last = -1;
  while (quiet < 50) {
    await new Promise((r) => setImmediate(r));
    if (recorded.length === last) quiet += 1;
    else {
      quiet = 0;
      last = recorded.length;
    }
  }
}
