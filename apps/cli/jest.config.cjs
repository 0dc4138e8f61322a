module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'cli',
  rootDir: __dirname,
  setupFilesAfterEnv: ['<rootDir>/../../tools/jest/integration-timeout.cjs'],
};
