import { settledWithin, withTimeLimit } from '../../src/lifecycle/timeLimit';

describe('withTimeLimit', () => {
  afterEach(() => jest.useRealTimers());

  it('aborts the signal with a TimeoutError naming the work after the limit', async () => {
    const reason = await withTimeLimit(
      5,
      'slow thing',
      (signal) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
    ).catch((e: unknown) => e);
    expect(reason).toMatchObject({ name: 'TimeoutError', message: 'slow thing' });
  });

  it('clears its timer when the work settles, resolves or rejects', async () => {
    jest.useFakeTimers();
    await withTimeLimit(60_000, 'x', async () => 1);
    await withTimeLimit(60_000, 'x', async () => Promise.reject(new Error('no'))).catch(() => undefined);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('clears its timer when the work throws before returning a promise', () => {
    jest.useFakeTimers();
    expect(() =>
      withTimeLimit(60_000, 'x', () => {
        throw new Error('at once');
      }),
    ).toThrow('at once');
    expect(jest.getTimerCount()).toBe(0);
  });
});

describe('settledWithin', () => {
  afterEach(() => jest.useRealTimers());

  it("gives the work's outcome and clears its timer", async () => {
    jest.useFakeTimers();
    await expect(settledWithin(60_000, 'x', Promise.resolve(7))).resolves.toBe(7);
    await expect(settledWithin(60_000, 'x', Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(jest.getTimerCount()).toBe(0);
  });

  it('rejects with a TimeoutError whose message is `what` when the work takes longer', async () => {
    const never = new Promise<never>(() => undefined);
    await expect(settledWithin(5, 'store ping timed out after 2 s', never)).rejects.toMatchObject({
      name: 'TimeoutError',
      message: 'store ping timed out after 2 s',
    });
  });
});
