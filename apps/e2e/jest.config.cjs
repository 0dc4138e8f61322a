module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'e2e',
  rootDir: __dirname,
  setupFilesAfterEnv: ['<rootDir>/../../tools/jest/integration-timeout.cjs'],
};
