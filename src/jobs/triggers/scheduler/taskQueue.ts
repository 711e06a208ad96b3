import type { CloudTasksClient } from '@google-cloud/tasks';

/**
 * A typed front for Cloud Tasks: the service enqueues HTTP tasks that call back into itself
 * with an OIDC token, e.g. the half-minute price update.
 */
export interface HttpTask {
  /** Task id within the queue; Cloud Tasks refuses a second task with the same id (dedupe). */
  readonly id: string;
  readonly url: string;
  /** Unix milliseconds; Cloud Tasks keeps second precision. */
  readonly scheduleTimeMs: number;
  readonly oidc: { readonly serviceAccountEmail: string; readonly audience: string };
}

export type EnqueueResult = 'created' | 'already-exists';

export interface TaskQueue {
  enqueue(task: HttpTask): Promise<EnqueueResult>;
  close(): Promise<void>;
}

export interface QueuePath {
  readonly project: string;
  readonly location: string;
  readonly queue: string;
}

export type CloudTasksClientOptions = ConstructorParameters<typeof CloudTasksClient>[0];

/** gRPC status ALREADY_EXISTS: a task with this id was created before (e.g. a retried tick). */
const ALREADY_EXISTS = 6;

export class CloudTasksQueue implements TaskQueue {
  private client: CloudTasksClient | undefined;

  /** `clientOptions` reach the client unchanged (tests: HTTP/1 fallback to a local stand-in). */
  constructor(
    private readonly path: QueuePath,
    private readonly clientOptions: CloudTasksClientOptions = {},
  ) {}

  async enqueue(task: HttpTask): Promise<EnqueueResult> {
    const client = this.getClient();
    const parent = client.queuePath(this.path.project, this.path.location, this.path.queue);
    try {
      await client.createTask({
        parent,
        task: {
          name: `${parent}/tasks/${task.id}`,
          scheduleTime: { seconds: Math.floor(task.scheduleTimeMs / 1000), nanos: 0 },
          httpRequest: {
            url: task.url,
            httpMethod: 'POST',
            oidcToken: { serviceAccountEmail: task.oidc.serviceAccountEmail, audience: task.oidc.audience },
          },
        },
      });
      return 'created';
    } catch (e) {
      if ((e as { code?: unknown }).code === ALREADY_EXISTS) return 'already-exists';
      throw e;
    }
  }

  async close(): Promise<void> {
    await this.client?.close();
  }

  private getClient(): CloudTasksClient {
    // Loaded on first use: embedded mode never enqueues and should not pay for the client.
    if (!this.client) {
      const { CloudTasksClient: Client } = require('@google-cloud/tasks') as typeof import('@google-cloud/tasks');
      this.client = new Client(this.clientOptions);
    }
    return this.client;
  }
}
