#!/bin/sh
":" //; exec node --max-semi-space-size=4 "$0" "$@"
/*
 * The `schedlab` bin. Executed (`npx schedlab`, a global install, ./apps/cli/bin/schedlab.js),
 * the shell runs the line above: it starts Node on this file with V8's young generation held to
 * 4 MiB a semi-space. Node's default lets it grow to 32 MiB while a dump loads, and every 4 KiB of
 * fresh memory a process touches costs a page fault: held small, a large `simulate` touches 25-65
 * MiB less, runs 9-17 % faster on the VMs Schedlab is benchmarked on and executes 1-5 % fewer
 * instructions (docs/benchmarks.md, "Start-up"). Run as `node schedlab.js`, the line is a string
 * and a comment, and the CLI runs under Node's defaults. A shell line rather than
 * `#!/usr/bin/env -S node …`: BusyBox's env (Alpine) has no -S.
 */
require('./start.js');
