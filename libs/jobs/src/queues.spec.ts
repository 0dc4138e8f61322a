import { pingJobDataSchema, pingResultSchema } from './queues';

describe('job contracts', () => {
  it('accepts a ping job that references a row id', () => {
    const id = '0b7c6a3e-9a53-4c39-8d1d-0f4c2b1f6a11';
    expect(pingJobDataSchema.parse({ pingJobId: id })).toEqual({ pingJobId: id });
  });

  it('rejects a ping job whose id is not a uuid', () => {
    expect(pingJobDataSchema.safeParse({ pingJobId: '42' }).success).toBe(false);
  });

  it('requires an ISO timestamp in results', () => {
    expect(
      pingResultSchema.safeParse({ echo: 'hi', processedBy: 'w1', processedAt: 'yesterday' }).success,
    ).toBe(false);
  });
});
