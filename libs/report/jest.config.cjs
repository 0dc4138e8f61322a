module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'report',
  rootDir: __dirname,
  // The browser test starts a real Chromium; this bounds a hung run, no test asserts on time.
  setupFilesAfterEnv: ['<rootDir>/../../tools/jest/integration-timeout.cjs'],
};
