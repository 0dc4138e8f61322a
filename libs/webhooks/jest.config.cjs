module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'webhooks',
  rootDir: __dirname,
  setupFilesAfterEnv: ['<rootDir>/../../tools/jest/integration-timeout.cjs'],
};
