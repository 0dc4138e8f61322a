module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'runs',
  rootDir: __dirname,
  setupFilesAfterEnv: ['<rootDir>/../../tools/jest/integration-timeout.cjs'],
};
