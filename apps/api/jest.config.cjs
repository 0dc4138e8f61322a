module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'api',
  rootDir: __dirname,
  setupFilesAfterEnv: ['<rootDir>/../../tools/jest/integration-timeout.cjs'],
};
