module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'metrics',
  rootDir: __dirname,
};
