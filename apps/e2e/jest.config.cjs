module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'e2e',
  rootDir: __dirname,
  setupFilesAfterEnv: ['<rootDir>/../../tools/jest/integration-timeout.cjs'],
  // Its specs run the compiled apps: compile them once first.
  globalSetup: '<rootDir>/../../tools/jest/build-apps.cjs',
};
