module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'queues',
  rootDir: __dirname,
};
