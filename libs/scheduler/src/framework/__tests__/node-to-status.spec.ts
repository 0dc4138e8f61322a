import { NodeToStatusMap } from '../node-to-status';
import { Status } from '../status';

describe('NodeToStatusMap', () => {
  const cpu = Status.unschedulable('Insufficient cpu');
  const taint = Status.unschedulable('node(s) had untolerated taint');

  it('keeps the order nodes failed in, as a Map does', () => {
    const m = new NodeToStatusMap();
    m.add('n3', cpu);
    m.add('n1', taint);
    m.add('n2', cpu);
    expect([...m]).toEqual([
      ['n3', cpu],
      ['n1', taint],
      ['n2', cpu],
    ]);
    expect([...m.keys()]).toEqual(['n3', 'n1', 'n2']);
    expect([...m.values()]).toEqual([cpu, taint, cpu]);
    expect(m.size).toBe(3);
  });

  it('looks nodes up by name, before and after more are added', () => {
    const m = new NodeToStatusMap([['a', cpu]]);
    expect(m.get('a')).toBe(cpu);
    expect(m.has('b')).toBe(false);
    m.add('b', taint); // after the index exists: it learns the new node
    expect(m.get('b')).toBe(taint);
    expect(m.get('c')).toBeUndefined();
  });

  it('set replaces a status in place and appends a new node', () => {
    const m = new NodeToStatusMap([
      ['a', cpu],
      ['b', cpu],
    ]);
    m.set('a', taint).set('c', cpu);
    expect([...m]).toEqual([
      ['a', taint],
      ['b', cpu],
      ['c', cpu],
    ]);
  });
});
