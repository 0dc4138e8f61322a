module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'tenancy',
  setupFilesAfterEnv: ['<rootDir>/../../tools/jest/integration-timeout.cjs'],
  rootDir: __dirname,
};
