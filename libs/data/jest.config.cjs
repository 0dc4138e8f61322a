module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'data',
  setupFilesAfterEnv: ['<rootDir>/../../tools/jest/integration-timeout.cjs'],
  rootDir: __dirname,
};
