#!/usr/bin/env node
// The npm registry this project's machines reach serves only some platforms' prebuilt binaries
// (e.g. no @swc/core-darwin-*), so `npm install` records optional dependencies in
// package-lock.json that have no entry of their own, and `npm ci` then refuses the lock as out of
// sync. This drops those dangling optional references; run it after every `npm install`.
const fs = require('node:fs');
const path = require('node:path');

const lockPath = path.join(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(lockPath, 'utf8'));

/** Where Node would find `dep` from the package at `key`: nested first, then each ancestor. */
function isInstalled(key, dep) {
  for (let dir = key; ;) {
    if (lock.packages[`${dir ? `${dir}/` : ''}node_modules/${dep}`]) return true;
    if (!dir) return false;
    const cut = dir.lastIndexOf('/node_modules/');
    dir = cut === -1 ? '' : dir.slice(0, cut);
  }
}

let dropped = 0;
for (const [key, pkg] of Object.entries(lock.packages)) {
  for (const dep of Object.keys(pkg.optionalDependencies ?? {})) {
    if (!isInstalled(key, dep)) {
      delete pkg.optionalDependencies[dep];
      dropped++;
    }
  }
}
fs.writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: dropped ${dropped} optional dependencies the registry does not serve`);
