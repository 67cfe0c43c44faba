// What jest loads for a stylesheet a component imports (jest.config.js moduleNameMapper): Vite bundles CSS, jest has no use for it.
module.exports = {};
