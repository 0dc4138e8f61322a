import { ObjectValidationError, QuantityError } from '@schedlab/k8s';
import { ConfigValidationError } from '@schedlab/scheduler';
import { ExitCode, InputFileError, UsageError, attributeTo, reportFailure } from './errors';

function failureOf(error: unknown): { code: number; text: string } {
  let text = '';
  const code = reportFailure(error, (t) => (text += t));
  return { code, text };
}

describe('attributeTo', () => {
  it('names the file in invalid-input errors from the k8s and scheduler libraries', () => {
    const raise = (e: Error) => () =>
      attributeTo('dump.yaml', () => {
        throw e;
      });
    expect(raise(new ObjectValidationError('Pod', 'ns', 'p', 'spec.containers', 'Required value'))).toThrow(
      new InputFileError('dump.yaml', 'Pod ns/p: spec.containers: Required value'),
    );
    expect(raise(new QuantityError('4x', 'bad suffix'))).toThrow(InputFileError);
    expect(raise(new ConfigValidationError([{ field: 'profiles[0]', message: 'bad' }]))).toThrow(
      'dump.yaml: profiles[0]: bad',
    );
  });

  it('lets other errors through untouched, so they are reported as internal', () => {
    const bug = new TypeError('undefined is not a function');
    expect(() =>
      attributeTo('dump.yaml', () => {
        throw bug;
      }),
    ).toThrow(bug);
  });
});

describe('reportFailure', () => {
  it('exits 1 with a one-line message for input and usage errors', () => {
    expect(failureOf(new InputFileError('dump.yaml', 'cannot read: no such file'))).toEqual({
      code: ExitCode.usage,
      text: 'schedlab: dump.yaml: cannot read: no such file\n',
    });
    expect(failureOf(new UsageError('--pod x/y: no such pod in d.yaml')).code).toBe(1);
  });

  it('exits 2 with the stack for anything else', () => {
    const { code, text } = failureOf(new RangeError('engine exploded'));
    expect(code).toBe(ExitCode.internal);
    expect(code).toBe(2);
    expect(text).toMatch(/^schedlab: internal error .*RangeError: engine exploded\n\s+at /s);
  });
});
