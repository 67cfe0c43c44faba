/** The most ids one question to `/api/albums/<id>/held` carries (the add picker asks per page of the library). */
export const MAX_HELD_IDS = 200;
