#!/usr/bin/env python3
"""Regenerates the balance plugins' JSON fixtures from kubernetes-sigs/descheduler's own test tables.

Usage: dump.py <descheduler git dir> <ref, e.g. v0.36.0> <libs/descheduler/src/plugins>

It exports the ref to a temporary directory, adds a test-only Go helper to each plugin package,
inserts a call that writes each table (a slice of structs, read through reflection) as JSON just
before the loop that runs it, runs those tests offline against the vendored modules, and writes
the rows, stripped of what varies per run or says nothing (uids, selfLinks, empty node info), as
prettier-formatted JSON next to each plugin. The tables' data is upstream's; nothing is edited.
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PLUGINS = 'pkg/framework/plugins/'

# (test file, the table variable its loop ranges over, the test function, the fixture written)
TABLES = [
    ('removeduplicates/removeduplicates_test.go', 'testCases', 'TestFindDuplicatePods',
     'removeduplicates/__fixtures__/find-duplicate-pods.json'),
    ('removeduplicates/removeduplicates_test.go', 'testCases', 'TestRemoveDuplicatesUniformly',
     'removeduplicates/__fixtures__/remove-duplicates-uniformly.json'),
    ('removeduplicates/validation_test.go', 'testCases', 'TestValidateRemovePodsViolatingNodeTaintsArgs',
     'removeduplicates/__fixtures__/validation.json'),
    ('nodeutilization/lownodeutilization_test.go', 'testCases', 'TestLowNodeUtilization',
     'nodeutilization/__fixtures__/low-node-utilization.json'),
    ('nodeutilization/lownodeutilization_test.go', 'tests', 'TestLowNodeUtilizationWithTaints',
     'nodeutilization/__fixtures__/low-node-utilization-with-taints.json'),
    ('nodeutilization/highnodeutilization_test.go', 'testCases', 'TestHighNodeUtilization',
     'nodeutilization/__fixtures__/high-node-utilization.json'),
    ('nodeutilization/highnodeutilization_test.go', 'tests', 'TestHighNodeUtilizationWithTaints',
     'nodeutilization/__fixtures__/high-node-utilization-with-taints.json'),
    ('nodeutilization/validation_test.go', 'tests', 'TestValidateLowNodeUtilizationPluginConfig',
     'nodeutilization/__fixtures__/low-node-utilization-validation.json'),
    ('nodeutilization/validation_test.go', 'tests', 'TestValidateHighNodeUtilizationPluginConfig',
     'nodeutilization/__fixtures__/high-node-utilization-validation.json'),
    ('removepodsviolatingtopologyspreadconstraint/topologyspreadconstraint_test.go', 'testCases',
     'TestTopologySpreadConstraint',
     'removepodsviolatingtopologyspreadconstraint/__fixtures__/topology-spread-constraint.json'),
    ('removepodsviolatingtopologyspreadconstraint/validation_test.go', 'testCases',
     'TestValidateRemovePodsViolatingTopologySpreadConstraintArgs',
     'removepodsviolatingtopologyspreadconstraint/__fixtures__/validation.json'),
    ('removepodsviolatingtopologyspreadconstraint/defaults_test.go', 'tests',
     'TestSetDefaults_RemovePodsViolatingTopologySpreadConstraintArgs',
     'removepodsviolatingtopologyspreadconstraint/__fixtures__/defaults.json'),
]

# TestSortDomains keys its input by a struct, which JSON cannot key by: its rows are rebuilt as
# lists of domains, each with its pods (input) or pod names (expected order).
SORT_DOMAINS_DUMP = '''	{
		type sortDomainsRow struct {
			Name    string           `json:"name"`
			Domains []map[string]any `json:"domains"`
			Want    []map[string]any `json:"want"`
		}
		var rows []sortDomainsRow
		for _, tt := range tests {
			row := sortDomainsRow{Name: tt.name, Domains: []map[string]any{}, Want: []map[string]any{}}
			for pair, pods := range tt.constraintTopology {
				row.Domains = append(row.Domains, map[string]any{"key": pair.key, "value": pair.value, "pods": pods})
			}
			sort.Slice(row.Domains, func(i, j int) bool { return row.Domains[i]["value"].(string) < row.Domains[j]["value"].(string) })
			for _, d := range tt.want {
				names := []string{}
				for _, p := range d.pods {
					names = append(names, p.Name)
				}
				row.Want = append(row.Want, map[string]any{"key": d.pair.key, "value": d.pair.value, "pods": names})
			}
			rows = append(rows, row)
		}
		dumpRows("%s", rows)
	}'''

DROP_KEYS = {'selfLink', 'nodeInfo', 'daemonEndpoints', 'nodemetricses', 'podmetricses',
             'expectedPodsWithMetricsEvicted'}


def clean(value, path=()):
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            # A set but zero deletionTimestamp (&metav1.Time{}) marshals as null: keep it set.
            if key == 'deletionTimestamp' and item is None:
                out[key] = '0001-01-01T00:00:00Z'
                continue
            if key in DROP_KEYS or item is None:
                continue
            # Object uids are random per run; owner references keep theirs.
            if key == 'uid' and path and path[-1] == 'metadata':
                continue
            out[key] = clean(item, path + (key,))
        return out
    if isinstance(value, list):
        return [clean(item, path) for item in value]
    return value


def insert_before_loop(test_file, func, loop_var, code):
    with open(test_file) as f:
        lines = f.read().split('\n')
    start = next(i for i, l in enumerate(lines) if l.startswith('func %s(' % func))
    loop = next(i for i in range(start, len(lines)) if ('range %s {' % loop_var) in lines[i])
    lines.insert(loop, code)
    with open(test_file, 'w') as f:
        f.write('\n'.join(lines))


def main(git_dir, ref, plugins_dir):
    work = tempfile.mkdtemp(prefix='descheduler-tables-')
    out = os.path.join(work, 'out')
    os.makedirs(out)
    archive = subprocess.run(['git', '--git-dir', git_dir, 'archive', ref], check=True, capture_output=True)
    subprocess.run(['tar', 'x', '-C', work], input=archive.stdout, check=True)

    with open(os.path.join(HERE, 'dump_helper.go.txt')) as f:
        helper = f.read()
    for package in {t[0].split('/')[0] for t in TABLES}:
        with open(os.path.join(work, PLUGINS, package, 'zz_dump_test.go'), 'w') as f:
            f.write(helper.replace('PKG', package).replace('OUT_DIR', out))

    tests = {}
    for test_file, loop_var, func, fixture in TABLES:
        name = fixture.replace('/', '_')
        insert_before_loop(os.path.join(work, PLUGINS, test_file), func, loop_var,
                           '\tdumpTable("%s", %s)' % (name, loop_var))
        tests.setdefault(test_file.split('/')[0], []).append(func)
    tsc = os.path.join(work, PLUGINS, 'removepodsviolatingtopologyspreadconstraint/topologyspreadconstraint_test.go')
    sort_fixture = 'removepodsviolatingtopologyspreadconstraint/__fixtures__/sort-domains.json'
    insert_before_loop(tsc, 'TestSortDomains', 'tests', SORT_DOMAINS_DUMP % sort_fixture.replace('/', '_'))
    tests['removepodsviolatingtopologyspreadconstraint'].append('TestSortDomains')

    env = dict(os.environ, GOFLAGS='-mod=vendor', GOPROXY='off')
    for package, funcs in tests.items():
        run = '^(%s)$' % '|'.join(funcs)
        subprocess.run(['go', 'test', '-count=1', '-run', run, './' + PLUGINS + package + '/'],
                       cwd=work, env=env, check=True)

    written = []
    for fixture in [t[3] for t in TABLES] + [sort_fixture]:
        with open(os.path.join(out, fixture.replace('/', '_'))) as f:
            rows = clean(json.load(f))
        target = os.path.join(plugins_dir, fixture)
        # One row a line; prettier then lays it out (and keeps short objects on one line).
        with open(target, 'w') as f:
            f.write('[\n' + ',\n'.join(json.dumps(r, separators=(',', ':')) for r in rows) + '\n]\n')
        written.append(target)
        print(target, len(rows), 'rows')
    subprocess.run(['npx', 'prettier', '--write', *written], check=True, capture_output=True)


if __name__ == '__main__':
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
