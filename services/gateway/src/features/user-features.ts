import { USER_FEATURES, WORKER_COMPONENTS, getUserRpc } from '@trove/proto-events';
import type { FeatureSet, UserFeature, WorkerComponent } from '@trove/proto-events';
import { badRequest } from '@trove/kit';
import type { Bus } from '@trove/kit';

/** The global settings: TROVE_FEATURES_OFF (any feature names) and the older TROVE_FEATURE_FAVOURITES / TROVE_FEATURE_HIDDEN. */
export interface GlobalFeatureSettings {
  featuresOff: string[];
  featureFavourites: boolean;
  featureHidden: boolean;
}

/** The features switched off for everybody; throws naming an unknown feature. */
export function globallyOff(settings: GlobalFeatureSettings): Set<UserFeature> {
  const unknown = settings.featuresOff.find((f) => !(USER_FEATURES as readonly string[]).includes(f));
  if (unknown !== undefined)
    throw new Error(`TROVE_FEATURES_OFF: unknown feature "${unknown}" (known: ${USER_FEATURES.join(', ')})`);
  const off = new Set(settings.featuresOff as UserFeature[]);
  if (!settings.featureFavourites) off.add('favourites');
  if (!settings.featureHidden) off.add('hidden');
  return off;
}

/** A user's effective features: the user's own (kept by the auth service), minus what is off for everybody. */
export class UserFeatures {
  constructor(
    private readonly bus: Bus,
    private readonly off: ReadonlySet<UserFeature>,
  ) {}

  async of(userId: string): Promise<FeatureSet> {
    const { features } = await this.bus.request(getUserRpc, { id: userId });
    return Object.fromEntries(USER_FEATURES.map((f) => [f, features[f] && !this.off.has(f)])) as FeatureSet;
  }
}

/** The worker components an owner's features permit: places, things and faces need explore and their own feature. */
export function permittedComponents(features: FeatureSet): WorkerComponent[] {
  const needs: Partial<Record<WorkerComponent, UserFeature>> = { places: 'places', things: 'things', faces: 'people' };
  return WORKER_COMPONENTS.filter((c) => {
    const feature = needs[c];
    return feature === undefined || (features.explore && features[feature]);
  });
}

/**
 * `features` of a user request as the auth service takes it: an object, or a string holding that
 * JSON object (some clients send it so). 400 for anything else, an unknown key or a non-boolean.
 */
export function decodeFeatures(value: unknown): Partial<FeatureSet> | undefined {
  if (value === undefined) return undefined;
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      throw badRequest('request/body/features must be a JSON object');
    }
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw badRequest('request/body/features must be an object');
  for (const [key, on] of Object.entries(parsed)) {
    if (!(USER_FEATURES as readonly string[]).includes(key))
      throw badRequest(`request/body/features has an unknown feature "${key}"`);
    if (typeof on !== 'boolean') throw badRequest(`request/body/features/${key} must be boolean`);
  }
  return parsed as Partial<FeatureSet>;
}
