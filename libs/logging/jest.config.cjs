module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'logging',
  rootDir: __dirname,
};
