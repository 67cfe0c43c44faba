/**
 * The API shapes the app uses, taken from the contract's types that @trove/openapi generates from
 * openapi/openapi.yaml (the gateway types itself from the same ones). Type-only imports: nothing
 * of that package reaches the browser bundle. Never write these shapes by hand: they would drift
 * from the contract.
 */
import type { components, paths } from '@trove/openapi';

export type { paths };
export type MediaItem = components['schemas']['MediaItem'];
export type MediaItemStatus = components['schemas']['MediaItemStatus'];
export type Album = components['schemas']['Album'];
export type SharedAlbum = components['schemas']['SharedAlbum'];
export type SharedMediaItem = components['schemas']['SharedMediaItem'];
export type AlbumRequest = components['schemas']['AlbumRequest'];
export type AlbumUpdateRequest = components['schemas']['AlbumUpdateRequest'];
export type MediaItemRequest = components['schemas']['MediaItemRequest'];
export type AuthResponse = components['schemas']['AuthResponse'];
export type ApiErrorBody = components['schemas']['Error'];
export type ConflictErrorBody = components['schemas']['ConflictError'];
export type Place = components['schemas']['Place'];
export type Thing = components['schemas']['Thing'];
export type Person = components['schemas']['Person'];
export type Face = components['schemas']['Face'];
export type User = components['schemas']['User'];
export type Account = components['schemas']['Account'];
export type ApiKey = components['schemas']['ApiKey'];
export type ApiKeyCreated = components['schemas']['ApiKeyCreated'];
export type UserRequest = components['schemas']['UserRequest'];
export type UserUpdateRequest = components['schemas']['UserUpdateRequest'];
export type Job = components['schemas']['Job'];
export type JobStatus = components['schemas']['JobStatus'];
export type Features = components['schemas']['Features'];
export type Disk = components['schemas']['Disk'];
export type Version = components['schemas']['Version'];
export type SetupStatus = components['schemas']['SetupStatus'];
export type AlbumSort = NonNullable<NonNullable<paths['/v1/albums']['get']['parameters']['query']>['sort']>;

/** The lists of media items the app shows; each maps to one list call of the API. */
export type MediaView =
  /** `at`: a timeline month (YYYY-MM); the list starts with its newest item. */
  | { kind: 'library'; at?: string }
  | { kind: 'favourites' }
  | { kind: 'hidden' }
  | { kind: 'trash' }
  | { kind: 'album'; albumId: string }
  | { kind: 'shared'; albumId: string }
  | { kind: ExploreKind; id: string }
  | { kind: 'search'; q: string };

/** The three kinds of explore entries, each with its own list of media items. */
export type ExploreKind = 'place' | 'thing' | 'person';

/** The API's largest page. */
export const PAGE_LIMIT = 100;
