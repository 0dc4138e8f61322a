// The published JSON Schema must match the zod schema; regenerate with UPDATE_EXPECTATIONS_SCHEMA=1.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expectationsJsonSchema, parseExpectations } from './expectations';

const SCHEMA_FILE = path.join(__dirname, '../../../../docs/expectations.schema.json');
const EXAMPLE = path.join(__dirname, '../../../../examples/checks/cluster-small.expectations.yaml');

const parse = (text: string) => parseExpectations(text, '/ci/policy/expect.yaml');

describe('expectations', () => {
  it('docs/expectations.schema.json is up to date', () => {
    const generated = JSON.stringify(expectationsJsonSchema(), null, 2) + '\n';
    if (process.env.UPDATE_EXPECTATIONS_SCHEMA) writeFileSync(SCHEMA_FILE, generated);
    expect(readFileSync(SCHEMA_FILE, 'utf8')).toBe(generated);
  });

  it('reads every kind, names unnamed checks after what they assert, resolves files next to the file', () => {
    const checks = parse(`
checks:
  - name: team-a
    schedulable: {selector: {namespace: team-a}}
  - unschedulable: {selector: {pods: [ml/job]}, reason: Insufficient nvidia.com/gpu}
  - placements: {pod: shop/web-1, node: n1}
  - placements: [{selector: {labels: 'app=web'}, nodeSelector: {zone: a}}]
  - maxMovedVsBaseline: {baseline: base.json, max: 2}
  - capacity: {podTemplate: ../pods/web.yaml, atLeast: 40}
`);
    expect(checks.map((c) => [c.kind, c.name])).toEqual([
      ['schedulable', 'team-a'],
      ['unschedulable', 'ml/job unschedulable'],
      ['placements', 'placements'],
      ['placements', 'placements'],
      ['maxMovedVsBaseline', 'at most 2 pods move vs base.json'],
      ['capacity', 'capacity of ../pods/web.yaml at least 40'],
    ]);
    expect(checks[4].args).toEqual({ baseline: '/ci/policy/base.json', max: 2 });
    expect(checks[5].args).toEqual({ podTemplate: '/ci/pods/web.yaml', atLeast: 40 });
    expect(checks[2].args).toEqual({ pod: 'shop/web-1', node: 'n1' });
  });

  it.each([
    ['checks: []\n', 'checks: Required value: a list of at least one check'],
    ['check: []\n', 'check: unknown field'],
    [
      'checks:\n  - {schedulable: {}, capacity: {podTemplate: p, atLeast: 1}}\n',
      'checks[0]: a check has exactly one of schedulable, unschedulable, placements, maxMovedVsBaseline, capacity (and an optional name), got "schedulable", "capacity"',
    ],
    [
      'checks:\n  - {schedulable: {selector: {namespce: a}}}\n',
      'checks[0].schedulable.selector: Unrecognized key: "namespce"',
    ],
    [
      'checks:\n  - {capacity: {podTemplate: p, atLeast: 0}}\n',
      'checks[0].capacity.atLeast: Too small: expected number to be >0',
    ],
    ['checks:\n  - {placements: {pod: a/b}}\n', 'checks[0].placements: give node, nodeSelector or both'],
    [
      'checks:\n  - {placements: [{node: n1}]}\n',
      'checks[0].placements[0]: give exactly one of pod and selector',
    ],
    ['checks:\n  - {maxMovedVsBaseline: {baseline: b.json}}\n', 'checks[0].maxMovedVsBaseline.max: '],
    [
      'checks:\n  - {schedulable: {selector: {labels: "app in (web"}}}\n',
      'checks[0].schedulable.selector.labels: ',
    ],
    ['checks: [\n', 'invalid YAML/JSON: '],
  ])('refuses %j naming the field', (text, message) => {
    expect(() => parse(text)).toThrow(`/ci/policy/expect.yaml: ${message}`);
  });

  it('reads the example of docs/ci-gates.md', () => {
    const checks = parseExpectations(readFileSync(EXAMPLE, 'utf8'), EXAMPLE);
    expect(new Set(checks.map((c) => c.kind))).toEqual(
      new Set(['schedulable', 'unschedulable', 'placements', 'maxMovedVsBaseline', 'capacity']),
    );
  });
});
