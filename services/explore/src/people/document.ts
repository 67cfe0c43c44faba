import type { FaceV1, PersonV1 } from '@trove/proto-events';
import { defineCollection } from '@trove/kit';

/** A face's rectangle in the upright picture, fractions 0..1. */
export interface FaceBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One face the worker found in one of the user's items (the `index`-th of its result). */
export interface FaceDoc {
  _id: string;
  userId: string;
  mediaItemId: string;
  index: number;
  box: FaceBox;
  score: number;
  /** As the worker sent it: base64 of little-endian float32 values, unit length. */
  embedding: string;
  /** Blob key of the face's square WebP thumbnail (media removes it with the item). */
  thumbnailKey: string;
  /** Null while the face waits for enough alike faces to start a person. */
  personId: string | null;
  /** How usable for recognition (0..1), as the worker rated it; absent from older results: usable. */
  quality?: number;
  /** The user gave the face its person: grouping never moves it (absent: false). */
  pinned?: boolean;
  /** People the user said it is not ("not this person"): grouping never gives it to them. */
  rejected?: string[];
}

/** A face as the contract answers it. */
export function toFaceV1(doc: FaceDoc): FaceV1 {
  return { id: doc._id, mediaItemId: doc.mediaItemId, box: doc.box, score: doc.score };
}

/** The face a person shows as its picture. */
export interface CoverFace {
  id: string;
  mediaItemId: string;
  box: FaceBox;
  score: number;
}

/** A person: faces grouped by likeness, named and hidden by the user, with a summary over the visible items. */
export interface PersonDoc {
  _id: string;
  userId: string;
  /** Empty until the user names them. */
  name: string;
  /** Lower-cased name: lists sort on it. */
  nameKey: string;
  hidden: boolean;
  /** The user's choice of cover (kept while it is a photo of theirs; null: the newest). */
  chosenCoverMediaItemId: string | null;
  coverMediaItemId: string | null;
  coverFace: CoverFace | null;
  /** Visible items with a face of theirs. */
  mediaItemsCount: number;
  /** Bumped by every summary refresh: a refresh only writes when no other one started after it. */
  revision: number;
  createdAt: Date;
  updatedAt: Date;
}

/** A person as the contract answers it. */
export function toPersonV1(doc: PersonDoc): PersonV1 {
  return {
    id: doc._id,
    userId: doc.userId,
    name: doc.name,
    hidden: doc.hidden,
    coverMediaItemId: doc.coverMediaItemId,
    coverFace: doc.coverFace,
    mediaItemsCount: doc.mediaItemsCount,
    createdAt: doc.createdAt.toISOString(),
    updatedAt: doc.updatedAt.toISOString(),
  };
}

export const FACES = defineCollection<FaceDoc>('explore_faces', [
  { fields: { userId: 1, mediaItemId: 1 } },
  { fields: { userId: 1, personId: 1 } },
]);
export const PEOPLE = defineCollection<PersonDoc>('explore_people', [
  { fields: { userId: 1, hidden: 1, mediaItemsCount: -1, nameKey: 1 } },
]);
