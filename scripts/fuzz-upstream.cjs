#!/usr/bin/env node
// npm run fuzz:upstream -- --release 1.34.4 --cases 200 --seed 1
//   [--families cases,profiles,storage,capacity,node-loss] [--out DIR] [--max-shrink N] [--batch K]
//   (also the newer-feature families of tools/feature-cases/gen.cjs: requests, gates, csi-capacity,
//   affinity-keys, spread-policies, preemption, and dra from tools/dra-cases/gen.cjs: its claims,
//   templates, device-taint, partitions (partitionable devices, consumable capacity), taintrules
//   (DeviceTaintRules), extended (DRA-backed extended resources) and binding (binding conditions)
//   variants in turn, or only DRA_VARIANT's when that is set)
//   [--binary PATH]   (an oracle binary already built for the release, instead of npm run oracle's)
//
// Differential fuzzing against the upstream oracle (tools/oracle): generates cases with the
// conformance generator (../shared/conformance/generator/gen.js), records them with the oracle at
// the release, replays them through the engine (@schedlab/conformance) and, for each disagreeing
// case (at most --max-shrink of them), shrinks it (drops input items while oracle and engine
// still disagree) and saves the minimal case with the oracle's answer in --out
// (default tmp/fuzz/v<release>/). Exit code 1 when any case disagreed.
'use strict';

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { ensureBinary, haveGo } = require('./oracle.cjs');

const root = path.resolve(__dirname, '..');
const generator = path.resolve(root, '..', 'shared', 'conformance', 'generator', 'gen.js');
const featureGenerator = path.join(root, 'tools', 'feature-cases', 'gen.cjs');
const draGenerator = path.join(root, 'tools', 'dra-cases', 'gen.cjs');

// Seeds are offset per family so fuzz cases never coincide with the public sets.
const FAMILIES = {
  cases: { config: { featureGates: {}, percentageOfNodesToScore: 100 } },
  profiles: { config: { featureGates: {}, percentageOfNodesToScore: 0 } },
  storage: { config: { featureGates: {}, percentageOfNodesToScore: 100 } },
  scale: {
    config: { featureGates: {}, percentageOfNodesToScore: null, parallelism: 1 },
  },
  capacity: {
    config: { featureGates: {}, percentageOfNodesToScore: 100, preemption: false },
  },
  'node-loss': {
    config: { featureGates: {}, percentageOfNodesToScore: 100, preemption: true },
  },
};

function parseArgs(argv) {
  const a = { cases: 100, seed: 1, families: 'cases,profiles,capacity,node-loss', maxShrink: 3, batch: 50 };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i].replace(/^--/, '');
    const v = argv[++i];
    if (k === 'release') a.release = v.replace(/^v/, '');
    else if (k === 'cases') a.cases = Number(v);
    else if (k === 'seed') a.seed = Number(v);
    else if (k === 'families') a.families = v;
    else if (k === 'out') a.out = path.resolve(v);
    else if (k === 'max-shrink') a.maxShrink = Number(v);
    else if (k === 'batch') a.batch = Number(v);
    else if (k === 'binary') a.binary = path.resolve(v);
    else throw new Error(`unknown option --${k}`);
  }
  if (!a.release) throw new Error('--release is required');
  a.out ??= path.join(root, 'tmp', 'fuzz', `v${a.release}`);
  return a;
}

// The generator is loaded once: a process per case cost more than recording it.
const GENERATORS = (() => {
  const g = require(generator);
  return {
    cases: g.genCase,
    profiles: g.genProfilesCase,
    storage: g.genStorageCase,
    scale: g.genScaleCase,
    capacity: g.genCapacityCase,
    'node-loss': g.genNodeLossCase,
  };
})();

// Families of the in-repo generator (tools/feature-cases/gen.cjs): each case carries its own
// family and config.
const FEATURE_FAMILIES = new Set(require(featureGenerator).FAMILIES);

function generate(family, seed) {
  if (family === 'dra') {
    const dra = require(draGenerator);
    return JSON.parse(
      JSON.stringify(dra.gen(seed, process.env.DRA_VARIANT || dra.VARIANTS[seed % dra.VARIANTS.length])),
    );
  }
  if (FEATURE_FAMILIES.has(family)) {
    return JSON.parse(JSON.stringify(require(featureGenerator).genFeatureCase(family, seed)));
  }
  if (!GENERATORS[family]) throw new Error(`unknown family ${family}`);
  // A JSON round trip gives the same plain object the generator's CLI prints.
  const c = JSON.parse(JSON.stringify(GENERATORS[family](seed)));
  const config = {
    ...FAMILIES[family].config,
    order: 'priority-desc-then-list-order',
    tieBreak: 'lowest-node-name',
    ...(c.config ?? {}),
  };
  return { ...c, config, ...(family === 'cases' ? {} : { family }) };
}

/**
 * Records the given cases with the oracle (one process for the batch): per case, the recorded
 * one, or `{ refused }` with the oracle's reason (it prints "<input file>: <reason>", e.g. when
 * upstream's own Filter fails with an error, which a golden file cannot hold).
 */
function record(binary, cases) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fuzz-upstream-'));
  try {
    fs.mkdirSync(path.join(dir, 'in'));
    cases.forEach((c, i) => fs.writeFileSync(path.join(dir, 'in', `case-${i}.json`), JSON.stringify(c)));
    const r = spawnSync(binary, ['--in', path.join(dir, 'in'), '--out', path.join(dir, 'out')], {
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
    const reasons = new Map();
    for (const line of (r.stderr ?? '').split('\n')) {
      const at = line.indexOf('.json: ');
      if (at > 0)
        reasons.set(path.basename(line.slice(0, at + '.json'.length)), line.slice(at + '.json: '.length));
    }
    return cases.map((_, i) => {
      const f = path.join(dir, 'out', `case-${i}.json`);
      if (!fs.existsSync(f)) {
        return { refused: reasons.get(`case-${i}.json`) ?? r.error?.message ?? `exit ${r.status}` };
      }
      const text = fs.readFileSync(f, 'utf8');
      return { text, golden: JSON.parse(text) };
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function disagrees(conformance, golden) {
  const report = conformance.replayCase(golden);
  return report.exact ? null : report;
}

/**
 * Delta debugging over the input items: removes chunks (halves, quarters, … single items) and
 * keeps a removal when the oracle still records the case and the engine still disagrees.
 */
// What a disagreement is about: the engine's error, or the first mismatch's subject and path.
// Shrinking keeps a removal only when the disagreement stays the same one (otherwise dropping a
// PriorityClass, say, trades the real disagreement for an input the engine rightly rejects).
function signature(report) {
  if (report.error) return `error: ${report.error}`;
  const m = report.mismatches[0];
  return `${m.subject} ${m.difference.path}`;
}

function shrink(binary, conformance, golden, budget = 400) {
  const target = signature(disagrees(conformance, golden));
  let c = JSON.parse(JSON.stringify(golden));
  let best = { text: JSON.stringify(golden), golden };
  let runs = 0;
  for (let size = Math.ceil(c.input.items.length / 2); size >= 1 && runs < budget;) {
    let removed = false;
    for (let start = 0; start < c.input.items.length && runs < budget; start += size) {
      const items = c.input.items.filter((_, i) => i < start || i >= start + size);
      const candidate = { ...c, input: { ...c.input, items } };
      runs++;
      const [rec] = record(binary, [candidate]);
      const report = rec.refused === undefined && disagrees(conformance, rec.golden);
      if (report && signature(report) === target) {
        c = candidate;
        best = rec;
        removed = true;
        start -= size;
      }
    }
    if (!removed) size = size === 1 ? 0 : Math.ceil(size / 2);
  }
  return { ...best, runs };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (!haveGo()) {
    console.error('fuzz:upstream needs Go on PATH for the oracle (see npm run oracle).');
    process.exit(2);
  }
  const binary = args.binary ?? ensureBinary(args.release);
  await require('./build.cjs').ensureBuilt('apps/cli');
  const conformance = require(path.join(root, 'dist', 'libs', 'conformance', 'src', 'index.js'));
  const families = args.families.split(',');
  fs.mkdirSync(args.out, { recursive: true });
  const started = Date.now();
  let total = 0;
  let exact = 0;
  let shrunk = 0;
  const failures = [];
  for (let from = 0; from < args.cases; from += args.batch) {
    const batch = [];
    for (let i = from; i < Math.min(args.cases, from + args.batch); i++) {
      const family = families[i % families.length];
      batch.push({ family, seed: 100000 + args.seed + i, c: generate(family, 100000 + args.seed + i) });
    }
    const recorded = record(
      binary,
      batch.map((b) => b.c),
    );
    batch.forEach((b, i) => {
      total++;
      const rec = recorded[i];
      if (rec.refused !== undefined) {
        failures.push(`${b.family} seed ${b.seed}: the oracle could not record it: ${rec.refused}`);
        return;
      }
      const report = disagrees(conformance, rec.golden);
      if (!report) {
        exact++;
        return;
      }
      const first = report.error ?? JSON.stringify(report.mismatches[0]);
      failures.push(`${b.family} seed ${b.seed}: ${first}`);
      if (shrunk < args.maxShrink) {
        shrunk++;
        const min = shrink(binary, conformance, rec.golden);
        const file = path.join(args.out, `${b.family}-case-${b.seed}.json`);
        fs.writeFileSync(file, min.text);
        console.log(
          `disagreement ${b.family} seed ${b.seed}: shrunk ${rec.golden.input.items.length} → ${min.golden.input.items.length} items in ${min.runs} oracle runs: ${path.relative(root, file)}`,
        );
      }
    });
    console.log(
      `fuzz:upstream v${args.release}: ${exact}/${total} exact (${Math.round((Date.now() - started) / 1000)} s)`,
    );
  }
  for (const f of failures) console.log(`  ${f}`.slice(0, 400));
  process.exit(exact === total ? 0 : 1);
}

main().catch((e) => {
  console.error(`fuzz:upstream: ${e.message}`);
  process.exit(2);
});
