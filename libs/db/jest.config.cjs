module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'db',
  rootDir: __dirname,
  setupFilesAfterEnv: ['<rootDir>/../../tools/jest/integration-timeout.cjs'],
};
