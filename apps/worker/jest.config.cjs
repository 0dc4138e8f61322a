module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'worker',
  rootDir: __dirname,
  setupFilesAfterEnv: ['<rootDir>/../../tools/jest/integration-timeout.cjs'],
};
