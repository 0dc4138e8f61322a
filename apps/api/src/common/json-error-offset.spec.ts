import { jsonErrorOffset, lineColumnAt } from './json-error-offset';

describe('jsonErrorOffset', () => {
  it.each([
    ['{"a": oops}', 6],
    ['{"a": 1,}', 8],
    ['[1, 2', 5],
    ['{"a": "x\u0001"}', 8],
    ['{"a": 1} extra', 9],
    ['{"a" 1}', 5],
  ])('%p fails at %p', (text, offset) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(jsonErrorOffset(text)).toBe(offset);
  });

  it('converts offsets to 1-based line and column', () => {
    expect(lineColumnAt('{\n  "a": oops\n}', 9)).toEqual({ line: 2, column: 8 });
  });
});
