module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'descheduler',
  rootDir: __dirname,
};
