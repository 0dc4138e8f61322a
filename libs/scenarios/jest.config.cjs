module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'scenarios',
  rootDir: __dirname,
};
