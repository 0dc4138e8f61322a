// Jest globalSetup of the projects whose specs run compiled apps as processes, as users do
// (apps/cli spawns the `schedlab` bin, apps/e2e forks the api and worker): compiles what they run,
// where stale, once before the first spec. The specs themselves still run from TypeScript sources.
const path = require('node:path');
const { ensureBuilt } = require('../../scripts/build.cjs');

const appsRunBy = { cli: ['apps/cli'], e2e: ['apps/api', 'apps/worker'] };

module.exports = async (_globalConfig, projectConfig) => {
  const project = path.basename(projectConfig.rootDir);
  const apps = appsRunBy[project];
  if (!apps) throw new Error(`tools/jest/build-apps.cjs: no apps listed for project ${project}`);
  for (const app of apps) await ensureBuilt(app);
};
