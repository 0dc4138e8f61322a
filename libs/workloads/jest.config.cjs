module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'workloads',
  rootDir: __dirname,
};
