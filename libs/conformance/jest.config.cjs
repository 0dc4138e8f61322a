module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'conformance',
  rootDir: __dirname,
};
