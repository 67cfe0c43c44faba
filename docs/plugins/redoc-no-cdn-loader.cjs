/**
 * Webpack loader for redoc's bundles: redoc 2.1 shows a logo from cdn.redoc.ly in the API
 * reference's menu, with no option to turn it off. A third-party request on every visit is not
 * what a self-hosted product's docs should do, so the address becomes an empty data URL: the image
 * fails to load and redoc removes it (its own onError), leaving the text link.
 */
module.exports = function redocNoCdn(source) {
  return source.split('https://cdn.redoc.ly/redoc/logo-mini.svg').join('data:,');
};
