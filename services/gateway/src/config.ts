import { blobStoreSpec, bool, int, optionalStr, str } from '@trove/kit';

/** The gateway's own variables (on top of the common ones). Documented in the README. */
export const gatewaySpec = {
  port: int('TROVE_GATEWAY_PORT', { default: 5001, min: 0, max: 65535 }),
  host: str('TROVE_GATEWAY_HOST', { default: '0.0.0.0' }),
  corsOrigins: optionalStr('TROVE_CORS_ORIGINS'),
  jsonBodyLimit: str('TROVE_JSON_BODY_LIMIT', { default: '1mb' }),
  featureFavourites: bool('TROVE_FEATURE_FAVOURITES', { default: true }),
  featureHidden: bool('TROVE_FEATURE_HIDDEN', { default: true }),
  ...blobStoreSpec,
};
